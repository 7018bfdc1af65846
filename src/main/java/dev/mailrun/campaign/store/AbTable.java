package dev.mailrun.campaign.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mailrun.campaign.model.AbState;
import dev.mailrun.campaign.model.AbTest;
import dev.mailrun.campaign.model.PickBy;
import dev.mailrun.campaign.model.Variant;
import dev.mailrun.db.Sql;
import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The tables campaign_ab and campaign_variant: a campaign's A/B test, its variants and its decision. */
public final class AbTable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, String>> FIELDS = new TypeReference<>() {};

    /** Stores the test of a campaign being created, in the caller's transaction. */
    public void insert(Connection c, long campaignId, AbTest test) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO campaign_ab (campaign_id, test_share_percent, decide_after_seconds, pick_by)
                VALUES (?, ?, ?, ?)""")) {
            ps.setLong(1, campaignId);
            ps.setInt(2, test.testSharePercent());
            if (test.decideAfter().isPresent()) {
                ps.setLong(3, test.decideAfter().get().toSeconds());
            } else {
                ps.setNull(3, Types.BIGINT);
            }
            ps.setString(4, test.pickBy().wireName());
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO campaign_variant (campaign_id, position, name, subject, template, from_name, fields)
                VALUES (?, ?, ?, ?, ?, ?, ?)""")) {
            for (int i = 0; i < test.variants().size(); i++) {
                Variant v = test.variant(i);
                ps.setLong(1, campaignId);
                ps.setInt(2, i);
                ps.setString(3, v.name());
                ps.setString(4, v.subject().orElse(null));
                ps.setString(5, v.template().orElse(null));
                ps.setString(6, v.fromName().orElse(null));
                ps.setString(7, v.fields().isEmpty() ? null : json(v.fields()));
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** The campaign's test; empty when it has none. {@code lock}: the row is locked until the transaction ends. */
    public Optional<AbState> find(Connection c, long campaignId, boolean lock) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT test_share_percent, decide_after_seconds, pick_by, test_size, assigned_at, test_done_at,
                       winner, winner_reason, decided_at, rest_given_at
                FROM campaign_ab WHERE campaign_id = ?""" + (lock ? " FOR UPDATE" : ""))) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                // Read after the campaign_ab row: a campaign without a test (most) costs one primary-key read.
                List<Variant> variants = variants(c, campaignId);
                long after = rs.getLong(2);
                Optional<Duration> decideAfter = rs.wasNull() ? Optional.empty() : Optional.of(Duration.ofSeconds(after));
                AbTest test = new AbTest(variants, rs.getInt(1), decideAfter, PickBy.parse(rs.getString(3)));
                return Optional.of(new AbState(campaignId, test, optInt(rs, 4), Optional.ofNullable(SqlTime.get(rs, 5)),
                        Optional.ofNullable(SqlTime.get(rs, 6)), optInt(rs, 7), Optional.ofNullable(rs.getString(8)),
                        Optional.ofNullable(SqlTime.get(rs, 9)), Optional.ofNullable(SqlTime.get(rs, 10))));
            }
        }
    }

    /**
     * The winner of the campaign's test, read with a shared lock on its row until the transaction
     * ends, so a pick (which locks the row to record the winner) waits for what the caller writes;
     * empty without a test or a winner.
     */
    public Optional<Integer> winnerLockShared(Connection c, long campaignId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT winner FROM campaign_ab WHERE campaign_id = ? LOCK IN SHARE MODE")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? optInt(rs, 1) : Optional.empty();
            }
        }
    }

    /** The test share got its variants: {@code size} recipients. */
    public void assigned(Connection c, long campaignId, long size, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE campaign_ab SET test_size = ?, assigned_at = ? WHERE campaign_id = ? AND assigned_at IS NULL")) {
            ps.setLong(1, size);
            SqlTime.set(ps, 2, now);
            ps.setLong(3, campaignId);
            ps.executeUpdate();
        }
    }

    /** Every test recipient is done: the wait for the decision starts now (only the first call counts). */
    public void testDone(Connection c, long campaignId, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE campaign_ab SET test_done_at = ? WHERE campaign_id = ? AND test_done_at IS NULL")) {
            SqlTime.set(ps, 1, now);
            ps.setLong(2, campaignId);
            ps.executeUpdate();
        }
    }

    /** Records the winner and why; false when one was recorded already (the first pick stands). */
    public boolean decide(Connection c, long campaignId, int winner, String reason, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE campaign_ab SET winner = ?, winner_reason = ?, decided_at = ?
                WHERE campaign_id = ? AND winner IS NULL""")) {
            ps.setInt(1, winner);
            ps.setString(2, Sql.truncate(reason, 500));
            SqlTime.set(ps, 3, now);
            ps.setLong(4, campaignId);
            return ps.executeUpdate() == 1;
        }
    }

    /** Every recipient without a variant was given the winner (only the first call counts). */
    public void restGiven(Connection c, long campaignId, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE campaign_ab SET rest_given_at = ? WHERE campaign_id = ? AND winner IS NOT NULL AND rest_given_at IS NULL")) {
            SqlTime.set(ps, 1, now);
            ps.setLong(2, campaignId);
            ps.executeUpdate();
        }
    }

    private static List<Variant> variants(Connection c, long campaignId) throws SQLException {
        List<Variant> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT name, subject, template, from_name, fields FROM campaign_variant
                WHERE campaign_id = ? ORDER BY position""")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String fields = rs.getString(5);
                    out.add(new Variant(rs.getString(1), Optional.ofNullable(rs.getString(2)), Optional.ofNullable(rs.getString(3)),
                            Optional.ofNullable(rs.getString(4)), fields == null ? Map.of() : fields(fields)));
                }
            }
        }
        return out;
    }

    private static Optional<Integer> optInt(ResultSet rs, int column) throws SQLException {
        int v = rs.getInt(column);
        return rs.wasNull() ? Optional.empty() : Optional.of(v);
    }

    private static String json(Map<String, String> fields) {
        try {
            return JSON.writeValueAsString(fields);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a map of strings is always JSON", e);
        }
    }

    private static Map<String, String> fields(String json) throws SQLException {
        try {
            return JSON.readValue(json, FIELDS);
        } catch (JsonProcessingException e) {
            throw new SQLException("campaign_variant.fields is not a JSON object of strings", e);
        }
    }
}
