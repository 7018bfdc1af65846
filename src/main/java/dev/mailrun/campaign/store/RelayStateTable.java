package dev.mailrun.campaign.store;

import dev.mailrun.db.Sql;
import dev.mailrun.db.SqlTime;
import dev.mailrun.events.EventOutbox;
import dev.mailrun.events.EventType;
import dev.mailrun.events.OutboxEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The relay_state table: which relays are down, until when, and who probes one whose back-off has
 * passed. Shared by every worker and campaign, so that one run's discovery spares the others the
 * same failures. Times are the caller's clock (a back-off, not a lease).
 *
 * <p>A row belongs to a relay under one configuration (its fingerprint, V34): a mark is about an
 * address and a login, so two workers that configure a relay of one name differently each keep
 * their own mark, and neither reads, probes nor clears the other's.
 */
public final class RelayStateTable {

    /** A relay going down (the first mark of a run of them) and coming back write their events with the change. */
    private final EventOutbox events = new EventOutbox();

    /**
     * A relay's row as read.
     *
     * @param downUntil empty: up
     * @param downs     times marked down in a row (the back-off grows with it)
     * @param config    the fingerprint of the relay's configuration the row belongs to; empty for
     *                  a row written before marks carried one (no configuration's: it holds for nobody)
     */
    public record State(String relay, Optional<Instant> downUntil, int downs, Optional<String> reason,
                        Optional<String> probeHolder, Optional<Instant> probeUntil, Optional<String> config) {

        public static State up(String relay) {
            return new State(relay, Optional.empty(), 0, Optional.empty(), Optional.empty(), Optional.empty(),
                    Optional.empty());
        }

        /** True when the relay is down and its back-off has passed by {@code now}: its probe is due. */
        public boolean probeDue(Instant now) {
            return downUntil.filter(u -> !u.isAfter(now)).isPresent();
        }

        /** True when a run other than {@code holder} holds the relay's probe at {@code now}. */
        public boolean probedByOther(String holder, Instant now) {
            return probeHolder.filter(h -> !h.equals(holder)).isPresent()
                    && probeUntil.filter(u -> u.isAfter(now)).isPresent();
        }
    }

    private static final String COLUMNS = "relay, down_until, downs, reason, probe_holder, probe_until, config";

    private static State state(ResultSet rs) throws SQLException {
        return new State(rs.getString(1), Optional.ofNullable(SqlTime.get(rs, 2)), rs.getInt(3),
                Optional.ofNullable(rs.getString(4)), Optional.ofNullable(rs.getString(5)),
                Optional.ofNullable(SqlTime.get(rs, 6)), Optional.ofNullable(rs.getString(7)).filter(x -> !x.isEmpty()));
    }

    /**
     * The state of each relay of {@code configs} under its configuration (relay name → fingerprint);
     * a relay without a row for that configuration is up.
     */
    public Map<String, State> read(Connection c, Map<String, String> configs) throws SQLException {
        Map<String, State> states = new HashMap<>();
        configs.keySet().forEach(r -> states.put(r, State.up(r)));
        for (State st : readAll(c, configs.keySet())) {
            if (st.config().orElse("").equals(configs.get(st.relay()))) {
                states.put(st.relay(), st);
            }
        }
        return states;
    }

    /** Every row of {@code relays}, whatever configuration each was written under. */
    public List<State> readAll(Connection c, Collection<String> relays) throws SQLException {
        List<State> rows = new java.util.ArrayList<>();
        if (relays.isEmpty()) {
            return rows;
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM relay_state WHERE relay IN ("
                + Sql.placeholders(relays.size()) + ") ORDER BY relay, config")) {
            int i = 1;
            for (String r : relays) {
                ps.setString(i++, r);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(state(rs));
                }
            }
        }
        return rows;
    }

    /** The relay's row under {@code config}, locked until the transaction ends (created up when missing). */
    public State lock(Connection c, String relay, String config, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT IGNORE INTO relay_state (relay, config, downs, updated_at) VALUES (?, ?, 0, ?)")) {
            ps.setString(1, relay);
            ps.setString(2, config);
            SqlTime.set(ps, 3, now);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT " + COLUMNS + " FROM relay_state WHERE relay = ? AND config = ? FOR UPDATE")) {
            ps.setString(1, relay);
            ps.setString(2, config);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return state(rs);
            }
        }
    }

    /**
     * Marks the relay down under the configuration {@code config} (a fingerprint) until {@code until},
     * its {@code downs}-th time in a row; any probe of it ends.
     */
    public void markDown(Connection c, String relay, Instant until, int downs, String reason, String config, Instant now)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE relay_state SET down_until = ?, downs = ?, reason = ?, probe_holder = NULL, probe_until = NULL,
                       updated_at = ? WHERE relay = ? AND config = ?""")) {
            SqlTime.set(ps, 1, until);
            ps.setInt(2, downs);
            ps.setString(3, Sql.truncate(reason, 1000));
            SqlTime.set(ps, 4, now);
            ps.setString(5, relay);
            ps.setString(6, config);
            ps.executeUpdate();
        }
        if (downs == 1) {
            events.write(c, List.of(OutboxEvent.of(EventType.RELAY_DOWN, null, null, null, OutboxEvent.fields(
                    "relay", relay, "reason", Sql.truncate(reason, 1000), "until", until.toString()))), now);
        }
    }

    /**
     * Takes the probe of a relay whose back-off has passed: one conditional UPDATE, whose row count
     * says who won. False when the relay is up, still backing off, or another run probes it.
     */
    public boolean claimProbe(Connection c, String relay, String config, String holder, Instant now, Instant until)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE relay_state SET probe_holder = ?, probe_until = ?, updated_at = ?
                WHERE relay = ? AND config = ? AND down_until IS NOT NULL AND down_until <= ?
                  AND (probe_holder IS NULL OR probe_until <= ? OR probe_holder = ?)""")) {
            ps.setString(1, holder);
            SqlTime.set(ps, 2, until);
            SqlTime.set(ps, 3, now);
            ps.setString(4, relay);
            ps.setString(5, config);
            SqlTime.set(ps, 6, now);
            SqlTime.set(ps, 7, now);
            ps.setString(8, holder);
            return ps.executeUpdate() == 1;
        }
    }

    /** The probe went through: the relay is up again. False when {@code holder} no longer held the probe. */
    public boolean markUp(Connection c, String relay, String config, String holder, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE relay_state SET down_until = NULL, downs = 0, reason = NULL, probe_holder = NULL,
                       probe_until = NULL, updated_at = ? WHERE relay = ? AND config = ? AND probe_holder = ?""")) {
            SqlTime.set(ps, 1, now);
            ps.setString(2, relay);
            ps.setString(3, config);
            ps.setString(4, holder);
            if (ps.executeUpdate() != 1) {
                return false;
            }
        }
        events.write(c, List.of(OutboxEvent.of(EventType.RELAY_UP, null, null, null,
                OutboxEvent.fields("relay", relay, "why", "probe delivered"))), now);
        return true;
    }

    /** The probe was not sent after all (the run ended first): another run may take it at once. */
    public void releaseProbe(Connection c, String relay, String config, String holder) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE relay_state SET probe_holder = NULL, probe_until = NULL"
                + " WHERE relay = ? AND config = ? AND probe_holder = ?")) {
            ps.setString(1, relay);
            ps.setString(2, config);
            ps.setString(3, holder);
            ps.executeUpdate();
        }
    }
}
