package dev.mailrun.testing;

import dev.mailrun.campaign.store.recipient.SentSecondTable;
import dev.mailrun.campaign.store.recipient.StatusCountTable;
import dev.mailrun.db.Transactions;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import org.assertj.core.api.Assertions;
import javax.sql.DataSource;

/**
 * For fixtures that write recipient rows with SQL of their own, past the store that keeps a
 * campaign's status counts and sent-per-second tallies: rebuilds both from the rows, as the
 * migration that created them back-filled them. Every fixture that inserts recipients or sets
 * their status directly calls it after.
 */
public final class StatusCounts {

    private StatusCounts() {}

    public static void rebuild(Connection c, long campaignId) throws SQLException {
        new StatusCountTable().rebuild(c, campaignId);
        new SentSecondTable().rebuild(c, campaignId, Instant.EPOCH);
    }

    /** {@code n} pending rows inserted without a relay: the delta the importer adds for them. */
    public static void inserted(Connection c, long campaignId, long n) throws SQLException {
        new StatusCountTable().apply(c, campaignId, new StatusCountTable.Delta().add("pending", "", n));
    }

    /** Asserts the campaign's kept counts equal a fresh count of its rows. */
    public static void assertExact(DataSource ds, long campaignId) throws SQLException {
        try (Connection c = ds.getConnection()) {
            StatusCountTable counts = new StatusCountTable();
            Assertions.assertThat(counts.read(c, campaignId)).as("kept status counts of campaign " + campaignId)
                    .isEqualTo(counts.recount(c, campaignId));
        }
    }

    public static void rebuild(DataSource ds, long campaignId) throws SQLException {
        Transactions.inTransaction(ds, c -> {
            rebuild(c, campaignId);
            return null;
        });
    }
}
