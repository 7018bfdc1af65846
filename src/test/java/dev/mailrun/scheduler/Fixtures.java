package dev.mailrun.scheduler;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import javax.sql.DataSource;

/** Small helpers shared by the scheduler tests. */
final class Fixtures {

    interface Body {
        void run(RunContext context) throws Exception;
    }

    private Fixtures() {}

    static TaskHandler handler(String name, Body body) {
        return new TaskHandler() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void run(RunContext context) throws Exception {
                body.run(context);
            }
        };
    }

    /** Defaults with a long lease, so no test depends on the heartbeat thread's timing. */
    static SchedulerConfig config(String owner) {
        return SchedulerConfig.defaults(owner).withLease(Duration.ofMinutes(30), Duration.ofMinutes(5));
    }

    /** Tests of one class share a database: each starts with no tasks (task_run rows cascade). */
    static void deleteAllTasks(DataSource ds) throws SQLException {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("DELETE FROM task")) {
            ps.executeUpdate();
        }
    }

    /** Simulates a lease running out without a heartbeat: no sleeping, the database clock decides. */
    static void expireLease(DataSource ds, String taskName) throws SQLException {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                "UPDATE task SET lease_until = UTC_TIMESTAMP(3) - INTERVAL 1 SECOND WHERE name = ? AND run_token IS NOT NULL")) {
            ps.setString(1, taskName);
            if (ps.executeUpdate() != 1) {
                throw new IllegalStateException("task " + taskName + " has no live run to expire");
            }
        }
    }

    /** All task_run rows of a task, oldest first. */
    static List<TaskRun> history(DataSource ds, String taskName) throws SQLException {
        List<TaskRun> runs = new ArrayList<>(new TaskStore(ds).recentRuns(taskName, 100_000));
        Collections.reverse(runs);
        return runs;
    }

    static List<TaskRun> history(DataSource ds, String taskName, RunOutcome outcome) throws SQLException {
        return history(ds, taskName).stream().filter(r -> r.outcome() == outcome).toList();
    }

    static Task task(DataSource ds, String name) throws SQLException {
        return new TaskStore(ds).find(name).orElseThrow();
    }
}
