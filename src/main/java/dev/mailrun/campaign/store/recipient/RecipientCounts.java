package dev.mailrun.campaign.store.recipient;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mailrun.campaign.model.BounceRate;
import dev.mailrun.campaign.model.ComplaintRate;
import dev.mailrun.campaign.model.ErrorCount;
import dev.mailrun.campaign.model.RecipientStatus;
import dev.mailrun.campaign.store.InFlightTable;
import dev.mailrun.db.Sql;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * What reports and breakers read of a campaign's recipients: counts by status and by relay, the most
 * common errors, the hard-bounce and complaint rates, and the merge fields every recipient has.
 */
public final class RecipientCounts {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final StatusCountTable statusCounts = new StatusCountTable();
    private final SentSecondTable sentSeconds = new SentSecondTable();

    /**
     * Counts by status for one campaign, as {@link StatusCountTable} keeps them. {@code inFlight} are
     * the ids its run has marked for sending and not yet recorded ({@link InFlightTable}): those still
     * waiting count as sending, which no row stores.
     */
    public Map<RecipientStatus, Long> counts(Connection c, long campaignId, Collection<Long> inFlight) throws SQLException {
        return counts(c, campaignId, kept(c, campaignId), inFlight);
    }

    /** The campaign's kept counts, (status, relay) → n: read once, for the methods below that take them. */
    public Map<String, Map<String, Long>> kept(Connection c, long campaignId) throws SQLException {
        return statusCounts.read(c, campaignId);
    }

    /** {@link #counts(Connection, long, Collection)} from counts already read ({@link #kept}). */
    public Map<RecipientStatus, Long> counts(Connection c, long campaignId, Map<String, Map<String, Long>> kept,
                                             Collection<Long> inFlight) throws SQLException {
        Map<RecipientStatus, Long> counts = StatusCountTable.byStatus(kept);
        if (inFlight.isEmpty()) {
            return counts;
        }
        // FORCE INDEX: else the optimizer may count the campaign's whole pending range in the claim index
        // (covering, so it looks cheap) and filter it by id — measured 486,871 rows estimated for 21 ids.
        try (PreparedStatement ps = c.prepareStatement("SELECT status, COUNT(*) FROM recipient FORCE INDEX (PRIMARY) WHERE id IN ("
                + Sql.placeholders(inFlight.size()) + ") AND campaign_id = ? AND status IN ('pending', 'retry') GROUP BY status")) {
            int i = 1;
            for (long id : inFlight) {
                ps.setLong(i++, id);
            }
            ps.setLong(i, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    RecipientStatus waiting = RecipientStatus.fromDb(rs.getString(1));
                    counts.merge(waiting, -rs.getLong(2), Long::sum);
                    counts.merge(RecipientStatus.SENDING, rs.getLong(2), Long::sum);
                }
            }
        }
        return counts;
    }

    /** A relay's part in one campaign: recipients its last attempt left sent, failed, or waiting for a retry (deferred). */
    public record RelayCount(String relay, long sent, long failed, long deferred) {}

    /** Per relay, the campaign's recipients by the outcome of the attempt that relay took last, by relay name. */
    public List<RelayCount> relayCounts(Connection c, long campaignId) throws SQLException {
        return relayCounts(kept(c, campaignId));
    }

    /** {@link #relayCounts(Connection, long)} from counts already read ({@link #kept}). */
    public List<RelayCount> relayCounts(Map<String, Map<String, Long>> kept) {
        Map<String, long[]> byRelay = new TreeMap<>();
        kept.forEach((status, relays) -> relays.forEach((relay, n) -> {
            int column = List.of("sent", "failed", "retry").indexOf(status);
            if (!relay.isEmpty() && column >= 0) {
                byRelay.computeIfAbsent(relay, k -> new long[3])[column] += n;
            }
        }));
        List<RelayCount> counts = new ArrayList<>();
        byRelay.forEach((relay, n) -> counts.add(new RelayCount(relay, n[0], n[1], n[2])));
        return counts;
    }

    /** The most common last errors among failed and retrying recipients. */
    public List<ErrorCount> topErrors(Connection c, long campaignId, int limit) throws SQLException {
        List<ErrorCount> top = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT status, COALESCE(last_code, 0), COALESCE(last_error, ''), COUNT(*) n FROM recipient
                WHERE campaign_id = ? AND status IN ('failed', 'retry')
                GROUP BY status, last_code, last_error ORDER BY n DESC LIMIT ?""")) {
            ps.setLong(1, campaignId);
            ps.setInt(2, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    top.add(new ErrorCount(rs.getString(1), rs.getInt(2), rs.getString(3), rs.getLong(4)));
                }
            }
        }
        return top;
    }

    /**
     * A campaign's hard-bounce rate. Sends are its recipients with a final outcome of trying (sent
     * or failed); hard bounces are those failed with a 5xx reply — refused during the SMTP dialogue
     * or bounced later — plus any send with a hard bounce_event whose row no longer says failed.
     * Sent and failed come from the maintained counts; only failed rows and the campaign's hard
     * bounce_events are read (at most one per recipient: its key is (recipient, kind)).
     */
    public BounceRate hardBounceRate(Connection c, long campaignId) throws SQLException {
        return hardBounceRate(c, campaignId, kept(c, campaignId));
    }

    /** {@link #hardBounceRate(Connection, long)} with the sent and failed counts already read ({@link #kept}). */
    public BounceRate hardBounceRate(Connection c, long campaignId, Map<String, Map<String, Long>> kept) throws SQLException {
        Map<RecipientStatus, Long> stored = StatusCountTable.byStatus(kept);
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT (SELECT COUNT(*) FROM recipient WHERE campaign_id = ? AND status = 'failed' AND last_code BETWEEN 500 AND 599),
                       COALESCE(SUM(r.status NOT IN ('sent', 'failed')), 0),
                       COALESCE(SUM(NOT (r.status = 'failed' AND COALESCE(r.last_code, 0) BETWEEN 500 AND 599)), 0)
                FROM bounce_event e JOIN recipient r ON r.id = e.recipient_id
                WHERE e.campaign_id = ? AND e.kind = 'hard'""")) {
            ps.setLong(1, campaignId);
            ps.setLong(2, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                long sends = stored.get(RecipientStatus.SENT) + stored.get(RecipientStatus.FAILED) + rs.getLong(2);
                return new BounceRate(campaignId, rs.getLong(1) + rs.getLong(3), sends);
            }
        }
    }

    /**
     * A campaign's complaint rate. Sends are its recipients marked sent (a complaint is about a
     * message that arrived; from the maintained counts) plus any with a complaint whose row says
     * otherwise; complaints are its complaint bounce_events (index ix_bounce_event_campaign).
     */
    public ComplaintRate complaintRate(Connection c, long campaignId) throws SQLException {
        return complaintRate(c, campaignId, statusCounts.read(c, campaignId));
    }

    /** {@link #complaintRate(Connection, long)} with the sent count already read ({@link #kept}). */
    public ComplaintRate complaintRate(Connection c, long campaignId, Map<String, Map<String, Long>> kept) throws SQLException {
        long sent = StatusCountTable.byStatus(kept).get(RecipientStatus.SENT);
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT COALESCE(SUM(r.status <> 'sent'), 0), COUNT(*)
                FROM bounce_event e JOIN recipient r ON r.id = e.recipient_id
                WHERE e.campaign_id = ? AND e.kind = 'complaint'""")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new ComplaintRate(campaignId, rs.getLong(2), sent + rs.getLong(1));
            }
        }
    }

    /**
     * The merge-field names every recipient of the campaign has; empty when it has no recipients.
     * Reads the distinct key sets only, not every row's fields.
     */
    public Optional<Set<String>> commonFieldNames(Connection c, long campaignId) throws SQLException {
        Set<String> common = null;
        try (PreparedStatement ps = c.prepareStatement("SELECT DISTINCT JSON_KEYS(fields) FROM recipient WHERE campaign_id = ?")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Set<String> keys = jsonKeys(rs.getString(1));
                    if (common == null) {
                        common = new HashSet<>(keys);
                    } else {
                        common.retainAll(keys);
                    }
                }
            }
        }
        return Optional.ofNullable(common);
    }

    private static Set<String> jsonKeys(String json) {
        if (json == null) {
            return Set.of();
        }
        try {
            return new HashSet<>(JSON.readValue(json, new TypeReference<List<String>>() {}));
        } catch (IOException e) {
            throw new IllegalStateException("unreadable merge-field keys: " + json, e);
        }
    }

    /**
     * How many of a campaign's recipients were sent since an instant, to the second: the current rate
     * {@code campaign status} shows, from {@link SentSecondTable} (the rows' {@code sent_at} has no
     * index, so that recording a result writes no more index entries than it does).
     */
    public long sentSince(Connection c, long campaignId, Instant since) throws SQLException {
        return sentSeconds.sentSince(c, campaignId, since);
    }

    /** The first second since an instant in which the campaign sent anything: where its current rate's stretch begins. */
    public Optional<Instant> firstSentSince(Connection c, long campaignId, Instant since) throws SQLException {
        return sentSeconds.firstSince(c, campaignId, since);
    }
}
