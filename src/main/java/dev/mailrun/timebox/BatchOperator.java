package dev.mailrun.timebox;

/** Does one batch of work inside the limits of its budget. */
@FunctionalInterface
public interface BatchOperator {

    /**
     * Processes at most {@code budget.maxItems()} items. Should stop early when
     * {@link BatchBudget#hasTimeForAnotherItem()} turns false, and give every blocking call a
     * timeout from the budget.
     *
     * @return how many items were processed and whether nothing is left to do
     * @throws Exception any failure; the timebox reports it as {@link BatchFailedException}
     */
    BatchResult runBatch(BatchBudget budget) throws Exception;
}
