package dev.mailrun.health;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.mailrun.db.DataSources;
import dev.mailrun.scheduler.WorkerHeartbeat;
import dev.mailrun.testing.CuttableProxy;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Readiness against a database that goes away: the pool reaches the real server through a TCP proxy
 * the test cuts and restores. {@link Readiness#refresh()} is what the readiness thread runs once per
 * heartbeat period.
 */
class ReadinessTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final SettableClock clock = SettableClock.at("2026-11-21T10:00:00Z");

    @Test
    void ready_turns_down_within_one_heartbeat_when_the_database_is_cut_and_up_again_when_it_returns() throws Exception {
        URI server = URI.create(db.url().substring("jdbc:".length()));
        try (CuttableProxy proxy = new CuttableProxy(server.getPort());
             HikariDataSource pool = DataSources.create("jdbc:mysql://127.0.0.1:" + proxy.port() + server.getPath(),
                     db.user(), db.password(), 2, "readiness", Optional.of(TestDatabase.SESSION_ZONE_SQL));
             Readiness readiness = new Readiness(pool, Optional.of(beating()), clock)) {
            assertThat(readiness.refresh().up()).as("%s", readiness.ready()).isTrue();
            assertThat(readiness.ready().checks()).extracting(Check::name).containsExactly("database", "schema", "scheduler");

            proxy.cut();
            ProbeResult down = readiness.refresh();

            assertThat(down.up()).isFalse();
            assertThat(readiness.ready().up()).isFalse();
            assertThat(down.checks()).filteredOn(Check::name, "database").singleElement().extracting(Check::up).isEqualTo(false);
            assertThat(down.checks()).filteredOn(Check::name, "scheduler").singleElement().extracting(Check::up).isEqualTo(true);

            proxy.restore();
            boolean up = false;
            // The check started during the outage may still wait for the pool; the next one runs afresh.
            for (int i = 0; i < 5 && !up; i++) {
                up = readiness.refresh().up();
            }
            assertThat(up).as("%s", readiness.ready()).isTrue();
            assertThat(readiness.ready().up()).isTrue();
        }
    }

    @Test
    void a_change_of_readiness_is_logged_as_readable_text_not_as_records() {
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> logged = new ch.qos.logback.core.read.ListAppender<>();
        ch.qos.logback.classic.Logger log = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(Readiness.class);
        logged.start();
        log.addAppender(logged);
        try (Readiness readiness = new Readiness(db.dataSource(), Optional.empty(), clock)) {
            readiness.refresh();
        } finally {
            log.detachAppender(logged);
        }
        assertThat(logged.list).extracting(e -> e.getFormattedMessage()).singleElement().asString()
                .startsWith("Readiness is now UP: database up").contains("; schema up").doesNotContain("Check[");
    }

    @Test
    void not_ready_at_start_is_logged_as_starting_not_as_down() {
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> logged = new ch.qos.logback.core.read.ListAppender<>();
        ch.qos.logback.classic.Logger log = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(Readiness.class);
        logged.start();
        log.addAppender(logged);
        WorkerHeartbeat notYetBeating = new WorkerHeartbeat(clock);
        try (Readiness readiness = new Readiness(db.dataSource(), Optional.of(notYetBeating), clock)) {
            assertThat(readiness.refresh().up()).isFalse();
            notYetBeating.beat();
            assertThat(readiness.refresh().up()).isTrue();
        } finally {
            log.detachAppender(logged);
        }
        assertThat(logged.list).extracting(e -> e.getFormattedMessage()).hasSize(2);
        assertThat(logged.list.get(0).getFormattedMessage()).isEqualTo("Readiness: starting; waiting for scheduler (the tick loop has not started)");
        assertThat(logged.list.get(1).getFormattedMessage()).startsWith("Readiness is now UP: ");
    }

    @Test
    void a_tick_loop_that_stopped_beating_is_neither_ready_nor_live_and_a_stale_result_counts_as_down() {
        WorkerHeartbeat heartbeat = beating();
        try (Readiness readiness = new Readiness(db.dataSource(), Optional.of(heartbeat), clock)) {
            assertThat(readiness.ready().up()).as("no result yet").isFalse();
            assertThat(readiness.refresh().up()).isTrue();
            assertThat(readiness.live().up()).isTrue();

            clock.advance(WorkerHeartbeat.MAX_AGE.plusSeconds(1));

            assertThat(readiness.live().up()).isFalse();
            assertThat(readiness.ready().up()).as("the last result is more than three periods old").isFalse();
            assertThat(readiness.refresh().checks()).filteredOn(Check::name, "scheduler").singleElement()
                    .extracting(Check::up).isEqualTo(false);
            heartbeat.beat();
            assertThat(readiness.refresh().up()).isTrue();
        }
    }

    @Test
    void without_a_worker_only_the_database_and_the_schema_count() {
        try (Readiness readiness = new Readiness(db.dataSource(), Optional.empty(), clock)) {
            clock.advance(Duration.ofHours(1));
            assertThat(readiness.refresh().checks()).extracting(Check::name).containsExactly("database", "schema");
            assertThat(readiness.live().up()).isTrue();
        }
    }

    private WorkerHeartbeat beating() {
        WorkerHeartbeat h = new WorkerHeartbeat(clock);
        h.beat();
        return h;
    }
}
