package dev.mailrun.campaign.store;

import dev.mailrun.db.Sql;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.CampaignTransition;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.model.SendWindows;
import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.campaign.model.WebVersionMode;
import dev.mailrun.db.SqlTime;
import dev.mailrun.events.EventOutbox;
import dev.mailrun.events.EventType;
import dev.mailrun.events.OutboxEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/** The campaign table. Status changes are conditional updates: a lost race reports false, never throws. */
public final class CampaignTable {

    /** Every status change writes its event (campaign.started, …) in the change's transaction. */
    private final EventOutbox events = new EventOutbox();

    private static final String COLUMNS = """
            id, name, template, from_address, from_name, reply_to, subject_override, status, start_at, rate_cap,
            pause_reason, task_id, created_at, updated_at, send_windows, expire_at, custom_headers, web_version""";

    public long insert(Connection c, NewCampaign n, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO campaign (name, template, from_address, from_name, reply_to, subject_override,
                                      start_at, rate_cap, send_windows, expire_at, custom_headers, web_version, status,
                                      created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'draft', ?, ?)""", Statement.RETURN_GENERATED_KEYS)) {
            int next = setGiven(ps, n);
            SqlTime.set(ps, next, now);
            SqlTime.set(ps, next + 1, now);
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        }
    }

    /**
     * Replaces what an operator gave of a draft or scheduled campaign, only while it is still at
     * version {@code seen} (its updated_at); false when it changed since or is no longer draft or
     * scheduled. The new version is later than the old one even within the same millisecond.
     */
    public boolean update(Connection c, long id, NewCampaign n, Instant seen, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE campaign SET name = ?, template = ?, from_address = ?, from_name = ?, reply_to = ?, subject_override = ?,
                                    start_at = ?, rate_cap = ?, send_windows = ?, expire_at = ?, custom_headers = ?,
                                    web_version = ?, updated_at = GREATEST(?, updated_at + INTERVAL 1000 MICROSECOND)
                WHERE id = ? AND updated_at = ? AND status IN ('draft', 'scheduled')""")) {
            int next = setGiven(ps, n);
            SqlTime.set(ps, next, now);
            ps.setLong(next + 1, id);
            SqlTime.set(ps, next + 2, seen);
            return ps.executeUpdate() == 1;
        }
    }

    /**
     * Binds what an operator gives of a campaign to parameters 1–12, in the order both the insert
     * and the update name them; returns the next parameter's index.
     */
    private static int setGiven(PreparedStatement ps, NewCampaign n) throws SQLException {
        ps.setString(1, n.name());
        ps.setString(2, n.template());
        ps.setString(3, EmailAddress.of(n.fromAddress()).value());
        ps.setString(4, n.fromName().orElse(null));
        ps.setString(5, n.replyTo().map(r -> EmailAddress.of(r).value()).orElse(null));
        ps.setString(6, n.subject().orElse(null));
        SqlTime.set(ps, 7, n.startAt().orElse(null));
        if (n.rateCap().isPresent()) {
            ps.setDouble(8, n.rateCap().get());
        } else {
            ps.setNull(8, Types.DOUBLE);
        }
        ps.setString(9, n.windows().map(SendWindows::spec).orElse(null));
        SqlTime.set(ps, 10, n.expireAt().orElse(null));
        ps.setString(11, HeadersColumn.write(n.headers()));
        ps.setString(12, n.webVersion().map(WebVersionMode::word).orElse(null));
        return 13;
    }

    public Optional<Campaign> find(Connection c, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM campaign WHERE id = ?")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(read(rs)) : Optional.empty();
            }
        }
    }

    public List<Campaign> list(Connection c) throws SQLException {
        List<Campaign> all = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM campaign ORDER BY id");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                all.add(read(rs));
            }
        }
        return all;
    }

    /**
     * Up to {@code limit} campaigns after id {@code afterId}, in id order, in {@code status} (any when
     * empty) and created at or after {@code since} (any when empty): a keyset page, so a campaign
     * created meanwhile lands after every page already read (index ix_campaign_status carries id).
     */
    public List<Campaign> page(Connection c, Optional<CampaignStatus> status, Optional<Instant> since, long afterId, int limit)
            throws SQLException {
        List<Campaign> page = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM campaign WHERE id > ?"
                + (status.isPresent() ? " AND status = ?" : "") + (since.isPresent() ? " AND created_at >= ?" : "")
                + " ORDER BY id LIMIT ?")) {
            int i = 1;
            ps.setLong(i++, afterId);
            if (status.isPresent()) {
                ps.setString(i++, status.get().dbValue());
            }
            if (since.isPresent()) {
                SqlTime.set(ps, i++, since.get());
            }
            ps.setInt(i, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    page.add(read(rs));
                }
            }
        }
        return page;
    }

    /**
     * Applies {@code transition} if the campaign is in one of the states it may start from;
     * {@code reason} becomes the pause reason for a pause and is cleared otherwise. Every status
     * change goes through here. Returns false when the campaign was in none of those states (a
     * lost race or a refused command: the caller decides which), never throws for it.
     */
    public boolean transition(Connection c, long id, CampaignTransition transition, String reason, Instant now)
            throws SQLException {
        Set<CampaignStatus> from = transition.from();
        String in = from.stream().map(s -> "?").collect(Collectors.joining(", "));
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE campaign SET status = ?, pause_reason = ?, self_paused = ?, updated_at = ? WHERE id = ? AND status IN ("
                        + in + ")")) {
            ps.setString(1, transition.to().dbValue());
            ps.setString(2, transition.carriesReason() ? Sql.truncate(reason, 1000) : null);
            ps.setBoolean(3, transition == CampaignTransition.SELF_PAUSE);
            SqlTime.set(ps, 4, now);
            ps.setLong(5, id);
            int i = 6;
            for (CampaignStatus s : from) {
                ps.setString(i++, s.dbValue());
            }
            if (ps.executeUpdate() != 1) {
                return false;
            }
        }
        Optional<EventType> type = eventOf(transition);
        if (type.isPresent()) {
            events.write(c, List.of(OutboxEvent.of(type.get(), id, null, null, OutboxEvent.fields(
                    "status", transition.to().dbValue(),
                    "by", isOperators(transition) ? "operator" : "mailrun",
                    "content", content(c, id).orElse(null),
                    "reason", transition.carriesReason() ? Sql.truncate(reason, 1000) : null,
                    "cause", transition.carriesReason() ? pauseCause(transition, reason) : null,
                    "reopened", transition == CampaignTransition.REOPEN ? Boolean.TRUE : null))), now);
        }
        return true;
    }

    /** The stored template version the campaign sends ({@code name@version}); empty while it is not pinned. */
    private static Optional<String> content(Connection c, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT template, template_version FROM campaign WHERE id = ?")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                int version = rs.getInt(2);
                return rs.wasNull() ? Optional.empty() : Optional.of(rs.getString(1) + "@" + version);
            }
        }
    }

    /** The event a status change reports, written in its transaction; none for a draft scheduled. */
    private static Optional<EventType> eventOf(CampaignTransition t) {
        return switch (t) {
            case START, BEGIN -> Optional.of(EventType.CAMPAIGN_STARTED);
            case PAUSE, SELF_PAUSE -> Optional.of(EventType.CAMPAIGN_PAUSED);
            case RESUME, RESUME_LATER, REOPEN -> Optional.of(EventType.CAMPAIGN_RESUMED);
            case COMPLETE -> Optional.of(EventType.CAMPAIGN_COMPLETED);
            case EXPIRE -> Optional.of(EventType.CAMPAIGN_EXPIRED);
            case CANCEL -> Optional.of(EventType.CAMPAIGN_CANCELLED);
            case SCHEDULE -> Optional.empty();
        };
    }

    /**
     * What a pause is for, for receivers that act on it: operator, failure-rate, hard-bounce-rate,
     * complaint-rate, template, route, or smtp (the relay refused authentication or TLS, or another
     * error no message could get past). Read from the reasons mailrun's own pauses give
     * (PauseRules, the rate breakers, SendTask); the reason itself goes along unchanged.
     */
    static String pauseCause(CampaignTransition t, String reason) {
        if (t == CampaignTransition.PAUSE) {
            return "operator";
        }
        String r = reason == null ? "" : reason;
        if (r.startsWith("hard-bounce rate ")) {
            return "hard-bounce-rate";
        }
        if (r.startsWith("complaint rate ")) {
            return "complaint-rate";
        }
        if (r.matches("(?s)[0-9.]+% of the last \\d+ attempts failed.*")) {
            return "failure-rate";
        }
        if (r.startsWith("template ")) {
            return "template";
        }
        if (r.startsWith("its relay route ")) {
            return "route";
        }
        return "smtp";
    }

    private static boolean isOperators(CampaignTransition t) {
        return switch (t) {
            case START, SCHEDULE, PAUSE, RESUME, RESUME_LATER, REOPEN, CANCEL -> true;
            case BEGIN, SELF_PAUSE, COMPLETE, EXPIRE -> false;
        };
    }

    /** A campaign's status for the metrics: {@code selfPaused} when mailrun paused it itself. */
    public record StatusRow(long id, CampaignStatus status, boolean selfPaused) {}

    /**
     * Campaigns not completed or cancelled, and those that ended at or after {@code endedSince}: the
     * ones whose numbers can still move, without re-reading every campaign that ever ran.
     */
    public List<StatusRow> statusesSince(Connection c, Instant endedSince) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT id, status, self_paused FROM campaign
                WHERE status NOT IN ('completed', 'cancelled') OR updated_at >= ? ORDER BY id""")) {
            SqlTime.set(ps, 1, endedSince);
            try (ResultSet rs = ps.executeQuery()) {
                List<StatusRow> rows = new ArrayList<>();
                while (rs.next()) {
                    rows.add(new StatusRow(rs.getLong(1), CampaignStatus.fromDb(rs.getString(2)), rs.getBoolean(3)));
                }
                return rows;
            }
        }
    }

    public void setTask(Connection c, long id, long taskId, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE campaign SET task_id = ?, updated_at = ? WHERE id = ?")) {
            ps.setLong(1, taskId);
            SqlTime.set(ps, 2, now);
            ps.setLong(3, id);
            ps.executeUpdate();
        }
    }

    /** The current status, read with a shared lock so a batch boundary sees a committed decision. */
    public Optional<CampaignStatus> status(Connection c, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT status FROM campaign WHERE id = ?")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(CampaignStatus.fromDb(rs.getString(1))) : Optional.empty();
            }
        }
    }

    /**
     * Holds the campaign with a shared lock (several imports may write at once) so that it cannot
     * be deleted, nor change status, under their rows; its status then. Empty when there is no
     * such campaign.
     */
    public Optional<CampaignStatus> lockShared(Connection c, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT status FROM campaign WHERE id = ? LOCK IN SHARE MODE")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(CampaignStatus.fromDb(rs.getString(1))) : Optional.empty();
            }
        }
    }

    /**
     * Sets what a draft or scheduled campaign's web version pages show; false when it is neither (or gone).
     * The campaign's version moves on, as an update's does.
     */
    public boolean setWebVersion(Connection c, long id, WebVersionMode mode, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE campaign SET web_version = ?, updated_at = GREATEST(?, updated_at + INTERVAL 1000 MICROSECOND)
                WHERE id = ? AND status IN ('draft', 'scheduled')""")) {
            ps.setString(1, mode.word());
            SqlTime.set(ps, 2, now);
            ps.setLong(3, id);
            return ps.executeUpdate() == 1;
        }
    }

    /** Sets the campaign's relay route ({@code campaign create --relay}); empty: the configured default route. */
    public void setRoute(Connection c, long id, Optional<RelayRoute> route, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE campaign SET relay_route = ?, updated_at = GREATEST(?, updated_at) WHERE id = ?")) {
            ps.setString(1, route.map(RelayRoute::text).orElse(null));
            SqlTime.set(ps, 2, now);
            ps.setLong(3, id);
            ps.executeUpdate();
        }
    }

    /** The campaign's own relay route; empty when it sends through the configured default route. */
    public Optional<RelayRoute> route(Connection c, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT relay_route FROM campaign WHERE id = ?")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.ofNullable(rs.getString(1)).map(RelayRoute::parse) : Optional.empty();
            }
        }
    }

    /**
     * Holds the campaign with an exclusive lock until the transaction ends; its status then. Taken
     * before deciding that a campaign is complete: an import holds the campaign shared while its
     * batch is uncommitted, so this waits for that batch, and later batches wait for the decision.
     */
    public Optional<CampaignStatus> lockExclusive(Connection c, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT status FROM campaign WHERE id = ? FOR UPDATE")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(CampaignStatus.fromDb(rs.getString(1))) : Optional.empty();
            }
        }
    }

    private static Campaign read(ResultSet rs) throws SQLException {
        double rate = rs.getDouble("rate_cap");
        Optional<Double> rateCap = rs.wasNull() ? Optional.empty() : Optional.of(rate);
        long task = rs.getLong("task_id");
        Optional<Long> taskId = rs.wasNull() ? Optional.empty() : Optional.of(task);
        return new Campaign(rs.getLong("id"), rs.getString("name"), rs.getString("template"), rs.getString("from_address"),
                Optional.ofNullable(rs.getString("from_name")), Optional.ofNullable(rs.getString("reply_to")),
                Optional.ofNullable(rs.getString("subject_override")), CampaignStatus.fromDb(rs.getString("status")),
                Optional.ofNullable(SqlTime.get(rs, "start_at")), rateCap, Optional.ofNullable(rs.getString("pause_reason")),
                taskId, SqlTime.get(rs, "created_at"), SqlTime.get(rs, "updated_at"),
                Optional.ofNullable(rs.getString("send_windows")).map(SendWindows::parse),
                Optional.ofNullable(SqlTime.get(rs, "expire_at")), HeadersColumn.read(rs.getString("custom_headers")),
                Optional.ofNullable(rs.getString("web_version")).map(WebVersionMode::parse));
    }
}
