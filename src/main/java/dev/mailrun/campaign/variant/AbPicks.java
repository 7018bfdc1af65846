package dev.mailrun.campaign.variant;

import dev.mailrun.campaign.model.AbState;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.store.AbTable;
import dev.mailrun.campaign.store.recipient.RecipientVariants;
import dev.mailrun.db.Transactions;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import javax.sql.DataSource;

/**
 * Recording an A/B test's winner ({@code campaign pick ID VARIANT}) and giving it to the rest:
 * <ol>
 *   <li>under the campaign_ab row's lock: the campaign has a test, no winner yet, a variant of that
 *       name, and its test share is done — then the winner and why are recorded;</li>
 *   <li>the recipients without a variant are given the winner, one id range per transaction
 *       ({@link RecipientVariants#assignRest}), and that this is done is recorded (campaign_ab.rest_given_at).
 *       A crash part-way leaves the record unwritten: the campaign's next run ({@link AbGate}) gives the
 *       winner to those still without one, so {@link #pick} need not run again. Only recipients
 *       without a variant are given one, so each is given its variant once, however often this runs.</li>
 * </ol>
 */
public final class AbPicks {

    /** What a pick did. */
    public record Picked(String variant, String reason, long givenTheWinner) {}

    private final DataSource dataSource;
    private final Clock clock;
    private final AbTable tests = new AbTable();
    private final RecipientVariants recipients = new RecipientVariants();

    public AbPicks(DataSource dataSource, Clock clock) {
        this.dataSource = dataSource;
        this.clock = clock;
    }

    /** @throws CampaignException with one line saying why the pick cannot be made */
    public Picked pick(long campaignId, String variant, String reason) throws SQLException {
        Instant now = clock.instant();
        int winner = Transactions.inTransaction(dataSource, c -> {
            AbState state = tests.find(c, campaignId, true).orElseThrow(
                    () -> new CampaignException("campaign " + campaignId + " has no A/B variants"));
            if (state.decided()) {
                throw new CampaignException("campaign " + campaignId + ": variant " + state.winnerName().get()
                        + " was picked already (" + state.winnerReason().orElse("") + ")");
            }
            int position = state.test().position(variant).orElseThrow(() -> new CampaignException("campaign " + campaignId
                    + " has no variant " + variant + " (" + String.join(", ",
                    state.test().variants().stream().map(v -> v.name()).toList()) + ")"));
            if (state.assignedAt().isEmpty() || recipients.testLeft(c, campaignId)) {
                throw new CampaignException("campaign " + campaignId + ": its test share is still being sent; pick once it is done");
            }
            tests.decide(c, campaignId, position, reason, now);
            return position;
        });
        return new Picked(variant, reason, giveRest(dataSource, campaignId, winner, now));
    }

    /**
     * Gives the recipients without a variant the winner, one id range per transaction, then records
     * that at {@code now}; returns how many were given it (0 when every one had a variant already).
     */
    static long giveRest(DataSource dataSource, long campaignId, int winner, Instant now) throws SQLException {
        RecipientVariants recipients = new RecipientVariants();
        long[] range = Transactions.inTransaction(dataSource, c -> recipients.idRange(c, campaignId));
        long given = 0;
        for (long from = range[0]; range[1] > 0 && from <= range[1]; from += RecipientVariants.chunk()) {
            long start = from;
            given += Transactions.inTransaction(dataSource, c -> recipients.assignRest(c, campaignId, winner, start));
        }
        Transactions.inTransaction(dataSource, c -> {
            new AbTable().restGiven(c, campaignId, now);
            return null;
        });
        return given;
    }
}
