package dev.mailrun.scheduler;

import com.fasterxml.jackson.core.JsonProcessingException;
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
import java.util.Optional;

/**
 * Every statement on the {@code task} table.
 *
 * <p>Clock rule: due-ness ({@code next_run_at <= ?}) is judged by the scheduler's injected clock,
 * which tests move; leases ({@code lease_until}) are written and compared only with the database's
 * {@code UTC_TIMESTAMP(3)}, so skewed worker clocks cannot break exclusivity. Tests expire a lease by
 * moving {@code lease_until} into the past with SQL, not by sleeping.
 *
 * <p>Every write of a live run is conditional on {@code run_token = ?}; its row count tells whether
 * the run still owns the task.
 *
 * <p>One piece of nearly 400 lines on purpose: it holds every statement on the {@code task} table, and
 * which of them are fenced by the run token and which compare the database's clock can only be checked
 * when they stand side by side.
 */
final class TaskTable {

    /**
     * A due task as seen by a tick, before any claim.
     *
     * @param nextRunSetAt when an operator's action set {@code nextRunAt} (scheduler clock); null when
     *                     the scheduler set it
     */
    record DueTask(long id, String name, String handler, Duration interval, MisfirePolicy misfirePolicy,
                   Duration misfireThreshold, Instant nextRunAt, String runToken, String owner, Instant heartbeatAt,
                   boolean leaseExpired, Instant scheduledFor, Instant nextRunSetAt) {

        boolean isLive() {
            return runToken != null && !leaseExpired;
        }

        /** A live run whose successor slot has begun by {@code now}: it is past its window, releasing the task. */
        boolean isReleasing(Instant now) {
            return isLive() && scheduledFor != null && !scheduledFor.plus(interval).isAfter(now);
        }
    }

    /**
     * The task row just after a successful claim, read under its row lock.
     *
     * @param gap how long the task was free before this claim (database clock); empty for its first run
     */
    record Claimed(Instant startedAt, Metadata metadata, int consecutiveFailures, Optional<Duration> gap) {}

    private static final String DUE_COLUMNS = """
            id, name, handler, interval_ms, misfire_policy, misfire_threshold_ms, next_run_at, next_run_set_at,
            run_token, owner, heartbeat_at, lease_until <= UTC_TIMESTAMP(3) AS lease_expired, scheduled_for""";

    private static final String COLUMNS = """
            id, name, description, handler, interval_ms, misfire_policy, misfire_threshold_ms, metadata, error_log,
            consecutive_failures, last_started_at, last_finished_at, next_run_at, enabled,
            run_token, owner, scheduled_for, started_at, heartbeat_at, lease_until""";

    List<DueTask> due(Connection c, Instant now, int limit) throws SQLException {
        String sql = "SELECT " + DUE_COLUMNS + """
                  FROM task
                 WHERE enabled = TRUE AND next_run_at <= ?
                 ORDER BY next_run_at, id
                 LIMIT ?""";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            SqlTime.set(ps, 1, now);
            ps.setInt(2, limit);
            try (ResultSet rs = ps.executeQuery()) {
                List<DueTask> due = new ArrayList<>();
                while (rs.next()) {
                    due.add(dueTask(rs));
                }
                return due;
            }
        }
    }

    /** One task as {@link #due} would list it now, re-read; empty when it is no longer due or enabled. */
    Optional<DueTask> due(Connection c, long id, Instant now) throws SQLException {
        String sql = "SELECT " + DUE_COLUMNS + " FROM task WHERE id = ? AND enabled = TRUE AND next_run_at <= ?";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, id);
            SqlTime.set(ps, 2, now);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(dueTask(rs)) : Optional.empty();
            }
        }
    }

    private static DueTask dueTask(ResultSet rs) throws SQLException {
        Duration interval = Duration.ofMillis(rs.getLong("interval_ms"));
        Duration threshold = misfireThreshold(rs, interval);
        return new DueTask(rs.getLong("id"), rs.getString("name"), rs.getString("handler"), interval,
                MisfirePolicy.valueOf(rs.getString("misfire_policy")), threshold,
                SqlTime.get(rs, "next_run_at"), rs.getString("run_token"), rs.getString("owner"),
                SqlTime.get(rs, "heartbeat_at"), rs.getBoolean("lease_expired"), SqlTime.get(rs, "scheduled_for"),
                SqlTime.get(rs, "next_run_set_at"));
    }

    /**
     * The claim: one conditional UPDATE, won when it changes one row. It requires the slot the tick
     * saw (a version check: a run that finished meanwhile moved it) and either no live run or exactly
     * the expired run the tick saw. {@code started_at} is never earlier than the previous run's
     * finish: UTC_TIMESTAMP is read when the statement starts, possibly before it waited for that
     * finish's row lock.
     */
    int claim(Connection c, DueTask task, String token, String owner, Instant slot, Duration lease,
              boolean countsAsStart) throws SQLException {
        String sql = """
                UPDATE task
                   SET run_token = ?, owner = ?, scheduled_for = ?,
                       started_at = GREATEST(UTC_TIMESTAMP(3), COALESCE(last_finished_at, UTC_TIMESTAMP(3))),
                       heartbeat_at = UTC_TIMESTAMP(3),
                       lease_until = UTC_TIMESTAMP(3) + INTERVAL ? MICROSECOND,
                       last_started_at = IF(?, GREATEST(UTC_TIMESTAMP(3), COALESCE(last_finished_at, UTC_TIMESTAMP(3))),
                                            last_started_at),
                       updated_at = UTC_TIMESTAMP(3)
                 WHERE id = ? AND enabled = TRUE AND next_run_at = ?
                   AND ((? IS NULL AND run_token IS NULL)
                        OR (run_token = ? AND lease_until <= UTC_TIMESTAMP(3)))""";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, token);
            ps.setString(2, owner);
            SqlTime.set(ps, 3, slot);
            ps.setLong(4, micros(lease));
            ps.setBoolean(5, countsAsStart);
            ps.setLong(6, task.id());
            SqlTime.set(ps, 7, task.nextRunAt());
            ps.setString(8, task.runToken());
            ps.setString(9, task.runToken());
            return ps.executeUpdate();
        }
    }

    Claimed readClaimed(Connection c, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT started_at, metadata, consecutive_failures, last_finished_at FROM task WHERE id = ?")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("task " + id + " vanished while claimed");
                }
                Instant started = SqlTime.get(rs, "started_at");
                Instant previous = SqlTime.get(rs, "last_finished_at");
                return new Claimed(started, Metadata.parse(rs.getString("metadata")), rs.getInt("consecutive_failures"),
                        Optional.ofNullable(previous).map(p -> Duration.between(p, started)));
            }
        }
    }

    /** The run holding the task, if its lease has not expired. */
    Optional<RunLease> liveRun(Connection c, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT run_token, owner, scheduled_for, started_at, heartbeat_at, lease_until
                  FROM task WHERE id = ? AND run_token IS NOT NULL AND lease_until > UTC_TIMESTAMP(3)""")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(lease(rs)) : Optional.empty();
            }
        }
    }

    int heartbeat(Connection c, long id, String token, Duration lease) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE task
                   SET heartbeat_at = UTC_TIMESTAMP(3), lease_until = UTC_TIMESTAMP(3) + INTERVAL ? MICROSECOND
                 WHERE id = ? AND run_token = ?""")) {
            ps.setLong(1, micros(lease));
            ps.setLong(2, id);
            ps.setString(3, token);
            return ps.executeUpdate();
        }
    }

    /** Saves metadata and extends the lease in one statement. */
    int checkpoint(Connection c, long id, String token, String metadataJson, Duration lease) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE task
                   SET metadata = ?, heartbeat_at = UTC_TIMESTAMP(3),
                       lease_until = UTC_TIMESTAMP(3) + INTERVAL ? MICROSECOND, updated_at = UTC_TIMESTAMP(3)
                 WHERE id = ? AND run_token = ?""")) {
            ps.setString(1, metadataJson);
            ps.setLong(2, micros(lease));
            ps.setLong(3, id);
            ps.setString(4, token);
            return ps.executeUpdate();
        }
    }

    /**
     * Ends a run: clears the live-run columns and sets the schedule. {@code metadataJson} and
     * {@code errorLogJson} null keep the stored values.
     */
    int finish(Connection c, long id, String token, Instant nextRunAt, boolean disable, int consecutiveFailures,
               String errorLogJson, String metadataJson) throws SQLException {
        // MySQL and MariaDB assign left to right: last_finished_at must read started_at before it is cleared.
        String sql = """
                UPDATE task
                   SET last_finished_at = GREATEST(UTC_TIMESTAMP(3), started_at),
                       run_token = NULL, owner = NULL, scheduled_for = NULL, started_at = NULL,
                       heartbeat_at = NULL, lease_until = NULL,
                       next_run_at = ?, next_run_set_at = NULL, enabled = enabled AND NOT ?, consecutive_failures = ?,
                       error_log = COALESCE(?, error_log), metadata = COALESCE(?, metadata),
                       updated_at = UTC_TIMESTAMP(3)
                 WHERE id = ? AND run_token = ?""";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            SqlTime.set(ps, 1, nextRunAt);
            ps.setBoolean(2, disable);
            ps.setInt(3, consecutiveFailures);
            ps.setString(4, errorLogJson);
            ps.setString(5, metadataJson);
            ps.setLong(6, id);
            ps.setString(7, token);
            return ps.executeUpdate();
        }
    }

    Instant lastFinishedAt(Connection c, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT last_finished_at FROM task WHERE id = ?")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return SqlTime.get(rs, 1);
            }
        }
    }

    /** Lets the lease expire now, so the next tick anywhere takes the task over without waiting. */
    int expireLease(Connection c, long id, String token) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE task SET lease_until = UTC_TIMESTAMP(3) WHERE id = ? AND run_token = ?")) {
            ps.setLong(1, id);
            ps.setString(2, token);
            return ps.executeUpdate();
        }
    }

    // ---- operator statements (TaskStore) ----

    void insert(Connection c, NewTask t) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO task (name, description, handler, interval_ms, misfire_policy, misfire_threshold_ms,
                                  metadata, next_run_at, enabled, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, TRUE, UTC_TIMESTAMP(3), UTC_TIMESTAMP(3))""")) {
            bindDefinition(ps, t);
            ps.executeUpdate();
        }
    }

    /** Inserts, or updates only the definition of an existing task (not its metadata, schedule or run). */
    void upsert(Connection c, NewTask t) throws SQLException {
        // The definition's values bound twice: VALUES(col) in the update is deprecated in MySQL 8.0.20
        // (a warning on every execution) and the row alias that replaces it is unknown to MariaDB.
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO task (name, description, handler, interval_ms, misfire_policy, misfire_threshold_ms,
                                  metadata, next_run_at, enabled, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, TRUE, UTC_TIMESTAMP(3), UTC_TIMESTAMP(3))
                ON DUPLICATE KEY UPDATE description = ?, handler = ?, interval_ms = ?, misfire_policy = ?,
                    misfire_threshold_ms = ?, updated_at = UTC_TIMESTAMP(3)""")) {
            bindDefinition(ps, t);
            ps.setString(9, t.description());
            ps.setString(10, t.handler());
            ps.setLong(11, t.interval().toMillis());
            ps.setString(12, t.misfirePolicy().name());
            setThreshold(ps, 13, t);
            ps.executeUpdate();
        }
    }

    private static void bindDefinition(PreparedStatement ps, NewTask t) throws SQLException {
        ps.setString(1, t.name());
        ps.setString(2, t.description());
        ps.setString(3, t.handler());
        ps.setLong(4, t.interval().toMillis());
        ps.setString(5, t.misfirePolicy().name());
        setThreshold(ps, 6, t);
        ps.setString(7, t.metadata().toJson());
        SqlTime.set(ps, 8, t.firstRunAt());
    }

    private static void setThreshold(PreparedStatement ps, int index, NewTask t) throws SQLException {
        if (t.misfireThreshold().isPresent()) {
            ps.setLong(index, t.misfireThreshold().get().toMillis());
        } else {
            ps.setNull(index, Types.BIGINT);
        }
    }

    Optional<Task> findByName(Connection c, String name) throws SQLException {
        return findOne(c, "SELECT " + COLUMNS + " FROM task WHERE name = ?", ps -> ps.setString(1, name));
    }

    Optional<Task> findById(Connection c, long id) throws SQLException {
        return findOne(c, "SELECT " + COLUMNS + " FROM task WHERE id = ?", ps -> ps.setLong(1, id));
    }

    List<Task> list(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM task ORDER BY name");
             ResultSet rs = ps.executeQuery()) {
            List<Task> tasks = new ArrayList<>();
            while (rs.next()) {
                tasks.add(task(rs));
            }
            return tasks;
        }
    }

    int setEnabled(Connection c, String name, boolean enabled) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE task SET enabled = ?, updated_at = UTC_TIMESTAMP(3) WHERE name = ?")) {
            ps.setBoolean(1, enabled);
            ps.setString(2, name);
            return ps.executeUpdate();
        }
    }

    /** Deletes the task (its history cascades) unless a run holds it, live or dead. */
    int deleteIdle(Connection c, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM task WHERE name = ? AND run_token IS NULL")) {
            ps.setString(1, name);
            return ps.executeUpdate();
        }
    }

    /** @param setAt when the operator's action set it (scheduler clock); null: not an operator's action */
    int setNextRunAt(Connection c, String name, Instant at, Instant setAt) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE task SET next_run_at = ?, next_run_set_at = ?, updated_at = UTC_TIMESTAMP(3) WHERE name = ?")) {
            SqlTime.set(ps, 1, at);
            SqlTime.set(ps, 2, setAt);
            ps.setString(3, name);
            return ps.executeUpdate();
        }
    }

    private interface Binder {
        void bind(PreparedStatement ps) throws SQLException;
    }

    private static Optional<Task> findOne(Connection c, String sql, Binder binder) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            binder.bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(task(rs)) : Optional.empty();
            }
        }
    }

    private static Task task(ResultSet rs) throws SQLException {
        Duration interval = Duration.ofMillis(rs.getLong("interval_ms"));
        Duration misfireThreshold = misfireThreshold(rs, interval);
        return new Task(rs.getLong("id"), rs.getString("name"), rs.getString("description"), rs.getString("handler"),
                interval, MisfirePolicy.valueOf(rs.getString("misfire_policy")), misfireThreshold,
                Metadata.parse(rs.getString("metadata")), errorLog(rs.getString("error_log")),
                rs.getInt("consecutive_failures"), Optional.ofNullable(SqlTime.get(rs, "last_started_at")),
                Optional.ofNullable(SqlTime.get(rs, "last_finished_at")), SqlTime.get(rs, "next_run_at"),
                rs.getBoolean("enabled"),
                rs.getString("run_token") == null ? Optional.empty() : Optional.of(lease(rs)));
    }

    /** NULL means one interval. */
    private static Duration misfireThreshold(ResultSet rs, Duration interval) throws SQLException {
        long ms = rs.getLong("misfire_threshold_ms");
        return rs.wasNull() ? interval : Duration.ofMillis(ms);
    }

    private static RunLease lease(ResultSet rs) throws SQLException {
        return new RunLease(rs.getString("run_token"), rs.getString("owner"), SqlTime.get(rs, "scheduled_for"),
                SqlTime.get(rs, "started_at"), SqlTime.get(rs, "heartbeat_at"), SqlTime.get(rs, "lease_until"));
    }

    private static Optional<ErrorLog> errorLog(String json) {
        if (json == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Json.MAPPER.readValue(json, ErrorLog.class));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable task.error_log: " + e.getOriginalMessage(), e);
        }
    }

    private static long micros(Duration d) {
        return d.toNanos() / 1_000;
    }
}
