package dev.mailrun.campaign.store.recipient;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The recipient table's statements of an A/B test: giving the test share its variants, the rest
 * the winner, and counting per variant. Every statement covers many rows: never one per recipient.
 */
public final class RecipientVariants {

    /** Ids per statement when the rest are given the winner: short transactions on a long list. */
    static final int REST_CHUNK = 20_000;

    /**
     * Gives {@code size} pending recipients without a variant, chosen by a deterministic shuffle of
     * the campaign's list (CRC32 of the campaign and recipient ids), variants 0..{@code variants}-1
     * round-robin in id order — the order the claim takes pending rows — so that whatever prefix of
     * the test share has been claimed, each variant has been claimed as often as any other, within one;
     * each is marked as one of the test share (recipient.ab_test_share), which status reports apart
     * from the rest. One statement; call inside the transaction that records the assignment.
     *
     * @return how many recipients were given a variant
     */
    public int assignTest(Connection c, long campaignId, long size, int variants) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE recipient r JOIN (
                    SELECT id, (ROW_NUMBER() OVER (ORDER BY id) - 1) MOD ? AS v FROM (
                        SELECT id, ROW_NUMBER() OVER (ORDER BY CRC32(CONCAT(?, ':', id)), id) AS rn
                        FROM recipient WHERE campaign_id = ? AND status = 'pending' AND variant IS NULL
                    ) shuffled WHERE rn <= ?
                ) chosen ON chosen.id = r.id
                SET r.variant = chosen.v, r.ab_test_share = 1""")) {
            ps.setInt(1, variants);
            ps.setLong(2, campaignId);
            ps.setLong(3, campaignId);
            ps.setLong(4, size);
            return ps.executeUpdate();
        }
    }

    /** How many recipients are waiting to be sent (pending or retry), what the test share is cut from. */
    public long waiting(Connection c, long campaignId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT COUNT(*) FROM recipient WHERE campaign_id = ? AND status IN ('pending', 'retry')")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** Whether any recipient of the test share is still to be sent (pending, retry or sending). */
    public boolean testLeft(Connection c, long campaignId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT 1 FROM recipient WHERE campaign_id = ? AND status IN ('pending', 'retry', 'sending')
                AND ab_test_share = 1 LIMIT 1""")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** The campaign's lowest and highest recipient ids; {0, 0} when it has none. */
    public long[] idRange(Connection c, long campaignId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT COALESCE(MIN(id), 0), COALESCE(MAX(id), 0) FROM recipient WHERE campaign_id = ?")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new long[] {rs.getLong(1), rs.getLong(2)};
            }
        }
    }

    /**
     * Gives the winner to the recipients in ids [{@code from}, {@code from} + {@link #REST_CHUNK})
     * that have no variant; a caller walks the id range, one transaction per chunk, so no statement
     * locks the whole list.
     */
    public int assignRest(Connection c, long campaignId, int winner, long from) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE recipient SET variant = ?
                WHERE campaign_id = ? AND id >= ? AND id < ? AND variant IS NULL""")) {
            ps.setInt(1, winner);
            ps.setLong(2, campaignId);
            ps.setLong(3, from);
            ps.setLong(4, from + REST_CHUNK);
            return ps.executeUpdate();
        }
    }

    public static long chunk() {
        return REST_CHUNK;
    }

    /**
     * What one variant's recipients in the test share ({@code testShare}), or outside it (the rest,
     * given the winner), did: sent, hard-bounced (a bounce after "sent", or a 5xx refusal),
     * complained, unsubscribed through this campaign's link or address.
     */
    public record VariantCount(int variant, boolean testShare, long recipients, long sent, long bounces, long complaints,
                               long unsubscribes) {

        /** Sent and not bounced. */
        public long delivered() {
            return Math.max(0, sent - bounces);
        }
    }

    /**
     * Per variant in position order, the test share before the rest; recipients without a variant
     * count in the rest of {@code winner} when there is one (given it by nobody yet), and are left out
     * otherwise.
     */
    public List<VariantCount> counts(Connection c, long campaignId, Integer winner) throws SQLException {
        List<VariantCount> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT COALESCE(r.variant, ?) v, r.ab_test_share s, COUNT(*), SUM(r.status = 'sent'),
                       SUM(hb.recipient_id IS NOT NULL OR (r.status = 'failed' AND r.last_code >= 500)),
                       SUM(cp.recipient_id IS NOT NULL), SUM(su.address IS NOT NULL)
                FROM recipient r
                LEFT JOIN bounce_event hb ON hb.recipient_id = r.id AND hb.kind = 'hard'
                LEFT JOIN bounce_event cp ON cp.recipient_id = r.id AND cp.kind = 'complaint'
                LEFT JOIN suppression su ON su.address = LOWER(r.email) AND su.reason = 'unsubscribed' AND su.source = ?
                WHERE r.campaign_id = ? AND COALESCE(r.variant, ?) IS NOT NULL
                GROUP BY v, s ORDER BY v, s DESC""")) {
            if (winner == null) {
                ps.setNull(1, java.sql.Types.INTEGER);
                ps.setNull(4, java.sql.Types.INTEGER);
            } else {
                ps.setInt(1, winner);
                ps.setInt(4, winner);
            }
            ps.setString(2, "unsubscribe:campaign=" + campaignId);
            ps.setLong(3, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new VariantCount(rs.getInt(1), rs.getBoolean(2), rs.getLong(3), rs.getLong(4), rs.getLong(5),
                            rs.getLong(6), rs.getLong(7)));
                }
            }
        }
        return out;
    }
}
