package dev.mailrun.campaign.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.db.Transactions;
import dev.mailrun.scheduler.Metadata;
import dev.mailrun.scheduler.MisfirePolicy;
import dev.mailrun.scheduler.NewTask;
import dev.mailrun.scheduler.Task;
import dev.mailrun.scheduler.TaskStore;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.TestDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every {@code INSERT … ON DUPLICATE KEY UPDATE} of mailrun, through both its paths on the real
 * database: the first call inserts, the second updates with new values. The update repeats the
 * bound values rather than using {@code VALUES(col)}, deprecated in MySQL 8.0.20 (a warning on
 * every execution) while its replacement, a row alias, is unknown to MariaDB.
 */
class UpsertsTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Instant T0 = Instant.parse("2026-11-24T00:00:00Z");

    @Test
    void no_statement_under_src_main_updates_a_duplicate_key_with_values_of_a_column() throws IOException {
        Pattern valuesFunction = Pattern.compile("(?i)=\\s*VALUES\\s*\\(");
        try (Stream<Path> files = Files.walk(Path.of("src/main"))) {
            List<String> offenders = files.filter(Files::isRegularFile)
                    .filter(p -> p.toString().endsWith(".java") || p.toString().endsWith(".sql"))
                    .flatMap(p -> lines(p).stream().filter(l -> valuesFunction.matcher(l).find()).map(l -> p + ": " + l.strip()))
                    .toList();
            assertThat(offenders).isEmpty();
        }
    }

    @Test
    void a_task_definition_is_inserted_then_updated_without_touching_its_schedule_or_metadata() throws Exception {
        TaskStore store = new TaskStore(db.dataSource());
        Metadata metadata = Metadata.empty();
        metadata.json().put("kept", 1);
        store.upsert(NewTask.of("upserted", "h1", Duration.ofMinutes(5), T0).withDescription("first").withMetadata(metadata));
        Task updated = store.upsert(new NewTask("upserted", "second", "h2", Duration.ofMinutes(1),
                MisfirePolicy.SKIP_TO_NEXT_SLOT, java.util.Optional.of(Duration.ofSeconds(30)), Metadata.empty(),
                T0.plusSeconds(3600)));
        assertThat(updated.description()).isEqualTo("second");
        assertThat(updated.handler()).isEqualTo("h2");
        assertThat(updated.interval()).isEqualTo(Duration.ofMinutes(1));
        assertThat(updated.misfirePolicy()).isEqualTo(MisfirePolicy.SKIP_TO_NEXT_SLOT);
        assertThat(updated.misfireThreshold()).isEqualTo(Duration.ofSeconds(30));
        assertThat(updated.nextRunAt()).as("the schedule stays").isEqualTo(T0);
        assertThat(updated.metadata().json().get("kept").asInt()).as("the metadata stays").isEqualTo(1);
        Task back = store.upsert(NewTask.of("upserted", "h1", Duration.ofMinutes(5), T0));
        assertThat(back.misfireThreshold()).as("a threshold set back to one interval")
                .isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void an_adapted_rate_is_inserted_then_overwritten() throws Exception {
        AdaptedRateTable table = new AdaptedRateTable();
        Transactions.inTransaction(db.dataSource(), c -> {
            table.lower(c, "relay-x", 5.0, T0, 1, "first");
            table.lower(c, "relay-x", 2.5, T0.plusSeconds(10), 2, "second");
            return null;
        });
        AdaptedRateTable.Adapted row;
        try (Connection c = db.dataSource().getConnection()) {
            row = table.read(c, List.of("relay-x")).get("relay-x");
        }
        assertThat(row).isEqualTo(new AdaptedRateTable.Adapted("relay-x", 2.5, T0.plusSeconds(10), T0.plusSeconds(10), 2,
                "second"));
    }

    @Test
    void the_in_flight_row_is_inserted_then_handed_to_the_next_run_empty() throws Exception {
        InFlightTable table = new InFlightTable();
        long id = CampaignFixtures.campaign(db.dataSource(), "upserted in flight");
        Transactions.inTransaction(db.dataSource(), c -> {
            table.hold(c, id, "run-1", T0);
            return table.write(c, id, "run-1", new java.util.TreeSet<>(List.of(7L, 8L)), T0);
        });
        Transactions.inTransaction(db.dataSource(), c -> {
            table.hold(c, id, "run-2", T0.plusSeconds(60));
            return null;
        });
        InFlightTable.Held held = Transactions.inTransaction(db.dataSource(), c -> table.lock(c, id)).orElseThrow();
        assertThat(held.runToken()).contains("run-2");
        assertThat(held.recipientIds()).isEmpty();
        boolean oldRunWrote = Transactions.inTransaction(db.dataSource(), c -> table.write(c, id, "run-1",
                new java.util.TreeSet<>(List.of(9L)), T0));
        assertThat(oldRunWrote).as("the old run no longer holds it").isFalse();
    }

    @Test
    void a_relay_share_is_inserted_then_renewed_one_at_a_time_and_several_at_once() throws Exception {
        RelayShareTable table = new RelayShareTable();
        try (Connection c = db.dataSource().getConnection()) {
            table.renew(c, "r", "holder-a", Duration.ofSeconds(1));
            long first = secondsLeft(c, "r", "holder-a");
            table.renew(c, "r", "holder-a", Duration.ofHours(1));
            assertThat(secondsLeft(c, "r", "holder-a")).as("renewed to an hour").isGreaterThan(3000).isGreaterThan(first);

            Map<String, RelayShareTable.Live> live = table.renewAll(c, List.of("r", "domain:g"), "holder-a",
                    Duration.ofSeconds(1));
            assertThat(live).containsEntry("r", new RelayShareTable.Live(new RelayShareTable.Holders(1, 0), java.util.Set.of(), java.util.Set.of()))
                    .containsEntry("domain:g", new RelayShareTable.Live(new RelayShareTable.Holders(1, 0), java.util.Set.of(), java.util.Set.of()));
            assertThat(secondsLeft(c, "r", "holder-a")).as("renewed back to a second").isLessThanOrEqualTo(1);
            table.renewAll(c, List.of("r", "domain:g"), "holder-a", Duration.ofHours(2));
            assertThat(secondsLeft(c, "r", "holder-a")).isGreaterThan(7000);
            assertThat(secondsLeft(c, "domain:g", "holder-a")).isGreaterThan(7000);
        }
    }

    /** Whole seconds until the share expires, by the database clock. */
    private static long secondsLeft(Connection c, String relay, String holder) throws Exception {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT TIMESTAMPDIFF(SECOND, UTC_TIMESTAMP(3), expires_at) FROM relay_share WHERE relay = ? AND holder = ?")) {
            ps.setString(1, relay);
            ps.setString(2, holder);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).as("share of " + holder + " on " + relay).isTrue();
                return rs.getLong(1);
            }
        }
    }

    private static List<String> lines(Path p) {
        try {
            return Files.readAllLines(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
