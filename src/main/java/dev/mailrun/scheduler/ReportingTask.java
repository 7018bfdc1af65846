package dev.mailrun.scheduler;

import java.util.Objects;

/**
 * A handler whose run is one call that says what it did: the mailbox tasks (bounces, replies)
 * read up to a bounded number of messages and report their counts. One class for all of them, so
 * a new such task is a name and a call, not another copy of a handler.
 */
public final class ReportingTask implements TaskHandler {

    /** One run's work, returning its report for the run history. */
    @FunctionalInterface
    public interface Work {
        RunReport run() throws Exception;
    }

    private final String name;
    private final Work work;

    public ReportingTask(String name, Work work) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("handler name must not be empty");
        }
        this.name = name;
        this.work = Objects.requireNonNull(work, "work");
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void run(RunContext context) throws Exception {
        context.report(work.run());
    }
}
