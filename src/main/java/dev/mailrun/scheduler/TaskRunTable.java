package dev.mailrun.scheduler;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Every statement on the {@code task_run} table: the history an operator reads. */
final class TaskRunTable {

    /** What a run's window looked like at its start: its wait at the slot, its margin, the gap before it. */
    record Window(Duration waited, Duration margin, Optional<Duration> gap) {}

    void insertRunning(Connection c, long taskId, String token, String owner, Instant slot, Instant startedAt,
                       Instant deadline, Window window) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO task_run (task_id, run_token, owner, scheduled_for, started_at, deadline, outcome,
                                      waited_ms, margin_ms, gap_ms)
                VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?, ?)""")) {
            ps.setLong(1, taskId);
            ps.setString(2, token);
            ps.setString(3, owner);
            SqlTime.set(ps, 4, slot);
            SqlTime.set(ps, 5, startedAt);
            SqlTime.set(ps, 6, deadline);
            ps.setLong(7, window.waited().toMillis());
            ps.setLong(8, window.margin().toMillis());
            if (window.gap().isPresent()) {
                ps.setLong(9, window.gap().get().toMillis());
            } else {
                ps.setNull(9, Types.BIGINT);
            }
            ps.executeUpdate();
        }
    }

    /**
     * Deletes up to {@code limit} of the oldest rows started more than {@code keep} ago by the
     * database clock, except rows of runs still marked running (their task may still refer to them).
     */
    int prune(Connection c, Duration keep, int limit) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                DELETE FROM task_run WHERE started_at < UTC_TIMESTAMP(3) - INTERVAL ? SECOND AND outcome <> 'running'
                ORDER BY started_at LIMIT ?""")) {
            ps.setLong(1, keep.toSeconds());
            ps.setInt(2, limit);
            return ps.executeUpdate();
        }
    }

    /** A row for a decision rather than a run (misfired, skipped_overlap): it starts and ends now. */
    void insertDecision(Connection c, long taskId, String token, String owner, Instant slot, RunOutcome outcome,
                        ObjectNode summary) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO task_run (task_id, run_token, owner, scheduled_for, started_at, finished_at, outcome, summary)
                VALUES (?, ?, ?, ?, UTC_TIMESTAMP(3), UTC_TIMESTAMP(3), ?, ?)""")) {
            ps.setLong(1, taskId);
            ps.setString(2, token);
            ps.setString(3, owner);
            SqlTime.set(ps, 4, slot);
            ps.setString(5, outcome.dbValue());
            ps.setString(6, Json.write(summary));
            ps.executeUpdate();
        }
    }

    /** Marks a dead run abandoned; it ends, as far as anyone can know, when it was taken over. */
    int markAbandoned(Connection c, String token, Instant takenOverAt, String reason) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE task_run SET outcome = 'abandoned', finished_at = ?, error = ?
                 WHERE run_token = ? AND outcome = 'running'""")) {
            SqlTime.set(ps, 1, takenOverAt);
            ps.setString(2, reason);
            ps.setString(3, token);
            return ps.executeUpdate();
        }
    }

    void finish(Connection c, String token, RunOutcome outcome, Instant finishedAt, RunReport report, String error)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE task_run
                   SET outcome = ?, finished_at = ?, summary = ?, batches = ?, items = ?, utilisation = ?,
                       overrun_ms = ?, error = ?
                 WHERE run_token = ?""")) {
            ps.setString(1, outcome.dbValue());
            SqlTime.set(ps, 2, finishedAt);
            ps.setString(3, Json.write(report.summary()));
            ps.setLong(4, report.batches());
            ps.setLong(5, report.items());
            if (report.utilisation() == null) {
                ps.setNull(6, Types.DOUBLE);
            } else {
                ps.setDouble(6, report.utilisation());
            }
            ps.setLong(7, report.overrun().toMillis());
            ps.setString(8, error);
            ps.setString(9, token);
            ps.executeUpdate();
        }
    }

    /** The outcome of each task's newest row, by task id (tasks without history are absent). */
    Map<Long, RunOutcome> lastOutcomes(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT r.task_id, r.outcome
                  FROM task_run r JOIN (SELECT task_id, MAX(id) AS id FROM task_run GROUP BY task_id) newest
                    ON newest.id = r.id""");
             ResultSet rs = ps.executeQuery()) {
            Map<Long, RunOutcome> outcomes = new HashMap<>();
            while (rs.next()) {
                outcomes.put(rs.getLong(1), RunOutcome.fromDb(rs.getString(2)));
            }
            return outcomes;
        }
    }

    /** The last {@code limit} rows of a task, newest first; without {@code idle} rows unless {@code withIdle}. */
    List<TaskRun> recent(Connection c, long taskId, int limit, boolean withIdle) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT id, task_id, run_token, owner, scheduled_for, started_at, finished_at, deadline, outcome,
                       summary, batches, items, utilisation, overrun_ms, error, waited_ms, margin_ms, gap_ms
                  FROM task_run WHERE task_id = ? AND (? OR outcome <> 'idle') ORDER BY id DESC LIMIT ?""")) {
            ps.setLong(1, taskId);
            ps.setBoolean(2, withIdle);
            ps.setInt(3, limit);
            try (ResultSet rs = ps.executeQuery()) {
                List<TaskRun> runs = new ArrayList<>();
                while (rs.next()) {
                    runs.add(new TaskRun(rs.getLong("id"), rs.getLong("task_id"),
                            Optional.ofNullable(rs.getString("run_token")), rs.getString("owner"),
                            Optional.ofNullable(SqlTime.get(rs, "scheduled_for")), SqlTime.get(rs, "started_at"),
                            Optional.ofNullable(SqlTime.get(rs, "finished_at")),
                            Optional.ofNullable(SqlTime.get(rs, "deadline")), RunOutcome.fromDb(rs.getString("outcome")),
                            Optional.ofNullable(Json.parseObject(rs.getString("summary"))),
                            Optional.ofNullable(rs.getObject("batches", Long.class)),
                            Optional.ofNullable(rs.getObject("items", Long.class)),
                            Optional.ofNullable(rs.getObject("utilisation", Double.class)),
                            Optional.ofNullable(rs.getObject("overrun_ms", Long.class)).map(Duration::ofMillis),
                            Optional.ofNullable(rs.getString("error")), millis(rs, "waited_ms"), millis(rs, "margin_ms"),
                            millis(rs, "gap_ms")));
                }
                return runs;
            }
        }
    }

    private static Optional<Duration> millis(ResultSet rs, String column) throws SQLException {
        return Optional.ofNullable(rs.getObject(column, Long.class)).map(Duration::ofMillis);
    }
}
