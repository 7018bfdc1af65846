package dev.mailrun.campaign.variant;

import dev.mailrun.campaign.model.AbState;
import dev.mailrun.campaign.store.AbTable;
import dev.mailrun.campaign.store.recipient.RecipientVariants;
import dev.mailrun.db.Transactions;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Where a campaign's A/B test stands when a sending run begins, moved on as far as the run may move it:
 * <ol>
 *   <li>no test: the run sends as always ({@link Phase.None});</li>
 *   <li>the test share has no variants yet: they are given in one statement
 *       ({@link RecipientVariants#assignTest}) and the run sends the test share ({@link Phase.TestShare});</li>
 *   <li>test recipients are left to send: the run sends only them;</li>
 *   <li>the test share is done and no winner picked: with {@code --pick-by clicks} or {@code replies}
 *       and the decision due, the variant ahead by human clicks ({@link ClickPick}) or by replies
 *       ({@link ReplyPick}) wins; otherwise the run sends
 *       nothing and ends with the reason ({@link Phase.Waiting}), the next run moved to when the
 *       decision is due;</li>
 *   <li>a winner is picked: the recipients without a variant are given it, unless that was finished
 *       already ({@link AbPicks#giveRest}), and the run sends the rest ({@link Phase.Decided}).</li>
 * </ol>
 * The campaign_ab row is locked while this is decided, so two runs (a run and one that took over)
 * never assign twice.
 */
public final class AbGate {

    /** What a run may do. */
    public sealed interface Phase {
        record None() implements Phase {}

        record TestShare(AbState state) implements Phase {}

        /** @param until when the decision is due; empty: only when the operator picks */
        record Waiting(AbState state, Optional<Instant> until, String reason) implements Phase {}

        record Decided(AbState state) implements Phase {}
    }

    private final DataSource dataSource;
    private final AbTable tests = new AbTable();
    private final RecipientVariants recipients = new RecipientVariants();

    public AbGate(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    public Phase phase(long campaignId, Instant now) throws SQLException {
        Phase phase = Transactions.inTransaction(dataSource, c -> {
            Optional<AbState> found = tests.find(c, campaignId, true);
            if (found.isEmpty()) {
                return new Phase.None();
            }
            AbState state = found.get();
            if (state.decided()) {
                return new Phase.Decided(state);
            }
            if (state.assignedAt().isEmpty()) {
                long size = state.test().testSize(recipients.waiting(c, campaignId));
                int given = recipients.assignTest(c, campaignId, size, state.test().variants().size());
                tests.assigned(c, campaignId, given, now);
                return new Phase.TestShare(tests.find(c, campaignId, false).orElseThrow());
            }
            if (recipients.testLeft(c, campaignId)) {
                return new Phase.TestShare(state);
            }
            tests.testDone(c, campaignId, now);
            AbState done = tests.find(c, campaignId, false).orElseThrow();
            Optional<RatePick.Decision> picked = due(done, now) ? pick(c, done) : Optional.empty();
            if (picked.isPresent()) {
                tests.decide(c, campaignId, picked.get().position(), picked.get().why(), now);
                return new Phase.Decided(tests.find(c, campaignId, false).orElseThrow());
            }
            return waiting(done, now);
        });
        if (phase instanceof Phase.Decided decided && decided.state().restGivenAt().isEmpty()) {
            // Picked by this run, or by one (or a pick) that crashed before every recipient without a
            // variant had the winner: give it now, before anything of the rest is sent. Asked of the
            // stored state, not of when the pick was made: an instant read back from a DATETIME(3)
            // column is not the instant a finer clock gave.
            AbPicks.giveRest(dataSource, campaignId, decided.state().winner().orElseThrow(), now);
        }
        return phase;
    }

    /** The winner by the test's measure; empty for a manual pick or when nothing decides it. */
    private static Optional<RatePick.Decision> pick(Connection c, AbState state) throws SQLException {
        return switch (state.test().pickBy()) {
            case CLICKS -> ClickPick.decide(c, state);
            case REPLIES -> ReplyPick.decide(c, state);
            case MANUAL -> Optional.empty();
        };
    }

    private static boolean due(AbState state, Instant now) {
        return state.decisionDue().filter(d -> !now.isBefore(d)).isPresent();
    }

    /** A test share sent and no winner: until when, and the reason a run ends with. */
    static Phase.Waiting waiting(AbState state, Instant now) {
        Optional<Instant> due = state.decisionDue();
        String pick = "campaign pick " + state.campaignId() + " VARIANT";
        if (due.isPresent() && now.isBefore(due.get())) {
            return new Phase.Waiting(state, due, "waiting for the A/B decision until " + due.get());
        }
        // Due with nothing that decides it (manual, or no variant ahead by its measure): the operator picks.
        String since = due.map(d -> " (due since " + d + switch (state.test().pickBy()) {
            case CLICKS -> "; no variant leads by human clicks";
            case REPLIES -> "; no variant leads by replies";
            case MANUAL -> "";
        } + ")").orElse("");
        return new Phase.Waiting(state, Optional.empty(), "waiting for the A/B decision until `" + pick + "`" + since);
    }
}
