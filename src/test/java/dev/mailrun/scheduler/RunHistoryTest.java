package dev.mailrun.scheduler;

import static dev.mailrun.scheduler.Fixtures.config;
import static dev.mailrun.scheduler.Fixtures.handler;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class RunHistoryTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Instant TEN = Instant.parse("2026-06-01T10:00:00Z");

    private final SettableClock clock = new SettableClock(TEN);
    private final TaskStore store = new TaskStore(db.dataSource());
    private long taskId;

    @BeforeEach
    void oneTaskWithHistory() throws Exception {
        Fixtures.deleteAllTasks(db.dataSource());
        store.create(NewTask.of("daily", "noop", Duration.ofDays(1), TEN));
        taskId = Fixtures.task(db.dataSource(), "daily").id();
    }

    private Scheduler scheduler(SchedulerConfig config) {
        return new Scheduler(db.dataSource(), HandlerRegistry.of(handler("noop", ctx -> { })), config, clock);
    }

    @Test
    void a_tick_deletes_finished_runs_older_than_the_history_and_keeps_the_rest() throws Exception {
        addRun("old-succeeded", 40, "succeeded");
        addRun("old-abandoned", 31, "abandoned");
        addRun("old-still-running", 40, "running");
        addRun("recent", 29, "succeeded");

        try (Scheduler s = scheduler(config("w").withRunHistory(Duration.ofDays(30)))) {
            s.tick();
        }

        assertThat(owners()).containsExactlyInAnyOrder("old-still-running", "recent", "w");
    }

    @Test
    void a_tick_deletes_a_bounded_number_so_a_long_history_goes_over_several_ticks() throws Exception {
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement("""
                INSERT INTO task_run (task_id, owner, started_at, finished_at, outcome)
                VALUES (?, 'old', UTC_TIMESTAMP(3) - INTERVAL 60 DAY, UTC_TIMESTAMP(3) - INTERVAL 60 DAY, 'succeeded')""")) {
            for (int i = 0; i < Scheduler.PRUNE_PER_TICK + 5; i++) {
                ps.setLong(1, taskId);
                ps.addBatch();
            }
            ps.executeBatch();
        }

        try (Scheduler s = scheduler(config("w").withRunHistory(Duration.ofDays(30)))) {
            s.tick();
            assertThat(owners()).filteredOn("old"::equals).hasSize(5);
            s.tick();
            assertThat(owners()).filteredOn("old"::equals).isEmpty();
        }
    }

    @Test
    void zero_keeps_the_history_forever() throws Exception {
        addRun("ancient", 3_000, "succeeded");

        try (Scheduler s = scheduler(config("w").withRunHistory(Duration.ZERO))) {
            s.tick();
        }

        assertThat(owners()).contains("ancient");
    }

    @Test
    void a_history_shorter_than_an_hour_plus_the_lease_is_refused() {
        assertThatThrownBy(() -> config("w").withRunHistory(Duration.ofMinutes(30)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("runHistory must be 0");
    }

    private void addRun(String owner, int daysAgo, String outcome) throws Exception {
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement("""
                INSERT INTO task_run (task_id, owner, started_at, finished_at, outcome)
                VALUES (?, ?, UTC_TIMESTAMP(3) - INTERVAL ? DAY,
                        IF(? = 'running', NULL, UTC_TIMESTAMP(3) - INTERVAL ? DAY), ?)""")) {
            ps.setLong(1, taskId);
            ps.setString(2, owner);
            ps.setInt(3, daysAgo);
            ps.setString(4, outcome);
            ps.setInt(5, daysAgo);
            ps.setString(6, outcome);
            ps.executeUpdate();
        }
    }

    private List<String> owners() throws Exception {
        List<String> owners = new ArrayList<>();
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT owner FROM task_run WHERE task_id = ?")) {
            ps.setLong(1, taskId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    owners.add(rs.getString(1));
                }
            }
        }
        return owners;
    }
}
