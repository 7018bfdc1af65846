package dev.mailrun.campaign.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.testing.TestDatabase;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PaceTailTableTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final PaceTailTable table = new PaceTailTable();

    @Test
    void a_runs_last_second_is_read_back_by_the_next_run_aged_on_the_database_clock() throws Exception {
        try (Connection c = db.dataSource().getConnection()) {
            table.write(c, "run-a", Map.of("domain:tail-gmail", new long[] {10, 400, 990}, "relay-tail", new long[] {5}));

            Map<String, long[]> seen = table.read(c, List.of("domain:tail-gmail", "relay-tail", "domain:other"), "run-b", 1000,
                    Map.of());

            assertThat(seen).containsOnlyKeys("domain:tail-gmail", "relay-tail");
            // Aged by the time since the write (a few milliseconds), each still under a second.
            assertThat(java.util.Arrays.stream(seen.get("domain:tail-gmail")).boxed().toList()).hasSizeBetween(2, 3)
                    .allMatch(age -> age >= 10 && age < 1000);
            assertThat(seen.get("relay-tail")[0]).isBetween(5L, 999L);
            // A run does not count its own tail.
            assertThat(table.read(c, List.of("relay-tail"), "run-a", 1000, Map.of())).isEmpty();
        }
    }

    @Test
    void a_tail_written_before_every_other_live_holder_joined_is_theirs_and_not_read_again() throws Exception {
        RelayShareTable shares = new RelayShareTable();
        List<String> names = List.of("relay-counted");
        try (Connection c = db.dataSource().getConnection()) {
            table.write(c, "run-ended", Map.of("relay-counted", new long[] {100}));
            shares.renewAll(c, names, "run-h", java.time.Duration.ofSeconds(60));
            assertThat(shares.othersJoined(c, names, "run-j")).as("run-h is still joining").containsEntry("relay-counted",
                    java.util.Optional.empty());
            assertThat(table.read(c, names, "run-j", 1000, shares.othersJoined(c, names, "run-j")))
                    .as("the holder has not counted it: the joiner does").containsOnlyKeys("relay-counted");

            try (var ps = c.prepareStatement("UPDATE pace_tail SET written_at = written_at - INTERVAL 5000 MICROSECOND"
                    + " WHERE holder = 'run-ended'")) {
                ps.executeUpdate();
            }
            shares.joined(c, names, "run-h");
            assertThat(table.read(c, names, "run-j", 1000, shares.othersJoined(c, names, "run-j")))
                    .as("run-h joined after the tail was written: counted there").isEmpty();
            assertThat(table.read(c, names, "run-h", 1000, shares.othersJoined(c, names, "run-h")))
                    .as("alone but for itself: a holder with no other counts every tail").containsOnlyKeys("relay-counted");

            table.write(c, "run-later", Map.of("relay-counted", new long[] {50}));
            try (var ps = c.prepareStatement("UPDATE pace_tail SET written_at = written_at + INTERVAL 5000 MICROSECOND"
                    + " WHERE holder = 'run-later'")) {
                ps.executeUpdate();
            }
            assertThat(table.read(c, names, "run-j", 1000, shares.othersJoined(c, names, "run-j")).get("relay-counted"))
                    .as("a tail written after run-h joined is the joiner's to count").hasSize(1);
            shares.releaseAll(c, names, "run-h");
        }
    }

    @Test
    void a_tail_older_than_the_window_is_not_read() throws Exception {
        try (Connection c = db.dataSource().getConnection()) {
            table.write(c, "run-old", Map.of("relay-stale", new long[] {1}));
            try (var ps = c.prepareStatement(
                    "UPDATE pace_tail SET written_at = UTC_TIMESTAMP(3) - INTERVAL 2 SECOND WHERE holder = 'run-old'")) {
                ps.executeUpdate();
            }

            assertThat(table.read(c, List.of("relay-stale"), "run-new", 1000, Map.of())).isEmpty();
        }
    }

    @Test
    void a_handover_is_read_by_its_joiner_alone_aged_on_the_database_clock_and_deleted_once_counted() throws Exception {
        try (Connection c = db.dataSource().getConnection()) {
            table.handOver(c, "run-h", List.of(new PaceTailTable.Handover("relay-h", "run-j", new long[] {100, 500}),
                    new PaceTailTable.Handover("domain:h-gmail", "run-j", new long[0]),
                    new PaceTailTable.Handover("relay-h", "run-k", new long[] {7})));

            Map<String, Map<String, long[]>> seen = table.handedOver(c, "run-j", List.of("relay-h", "domain:h-gmail"), 1000);

            assertThat(seen).containsOnlyKeys("relay-h", "domain:h-gmail");
            assertThat(seen.get("relay-h")).containsOnlyKeys("run-h");
            assertThat(java.util.Arrays.stream(seen.get("relay-h").get("run-h")).boxed().toList()).hasSize(2)
                    .allMatch(age -> age >= 100 && age < 1000);
            assertThat(seen.get("domain:h-gmail").get("run-h")).as("handed over, nothing to count").isEmpty();
            assertThat(table.read(c, List.of("relay-h"), "run-x", 1000, Map.of())).as("a handover is no tail").isEmpty();

            table.deleteHandovers(c, "run-j");
            assertThat(table.handedOver(c, "run-j", List.of("relay-h"), 1000)).isEmpty();
            assertThat(table.handedOver(c, "run-k", List.of("relay-h"), 1000)).as("another joiner's stays").containsOnlyKeys("relay-h");
        }
    }
}
