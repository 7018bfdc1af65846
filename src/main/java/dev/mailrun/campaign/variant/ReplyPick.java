package dev.mailrun.campaign.variant;

import dev.mailrun.campaign.model.AbState;
import dev.mailrun.campaign.store.ReplyTable;
import dev.mailrun.campaign.store.recipient.RecipientVariants;
import dev.mailrun.campaign.store.recipient.RecipientVariants.VariantCount;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * The measure of {@code --pick-by replies}: per variant, the recipients who replied (people's
 * replies read from the replies mailbox; automatic answers and reports are not replies, docs/MAIL.md)
 * per delivered message, with its 95 % interval. The winner is the variant with the highest rate,
 * ties broken by the higher lower bound; with no reply at all, or a tie on both, nothing decides and
 * the operator picks ({@link RatePick}).
 */
final class ReplyPick {

    static final String MEASURE = "recipients who replied per delivered";

    private ReplyPick() {
    }

    /** Each variant's measure over its test share, in position order, from its {@code counts} (as status reads them). */
    static List<Wilson> measures(Connection c, AbState state, List<VariantCount> counts) throws SQLException {
        return RatePick.measures(state, counts, new ReplyTable().repliersByVariant(c, state.campaignId()));
    }

    /** The measure over the rest (the recipients outside the test share, sent the winner), {@code delivered} of them. */
    static Wilson rest(Connection c, AbState state, long delivered) throws SQLException {
        return RatePick.of(new ReplyTable().repliersOfRest(c, state.campaignId()), delivered);
    }

    /** The winner by replies; empty when nothing decides it. */
    static Optional<RatePick.Decision> decide(Connection c, AbState state) throws SQLException {
        List<Wilson> m = measures(c, state, new RecipientVariants().counts(c, state.campaignId(), null));
        return RatePick.best(state, m, "the highest rate of replies");
    }
}
