package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.model.SuppressionReason;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.db.SqlTime;
import dev.mailrun.db.Transactions;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code mailrun suppressions import|export|list|check|remove}, through the real CLI and the real database. */
class SuppressionsCommandTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    /** A second, empty database: where an exported list is imported again. */
    @RegisterExtension
    static final TestDatabase fresh = new TestDatabase();

    @TempDir
    Path dir;

    private final SettableClock clock = SettableClock.at("2026-11-21T10:00:00Z");

    @BeforeEach
    void emptyLists() throws Exception {
        for (TestDatabase d : List.of(db, fresh)) {
            try (Connection c = d.dataSource().getConnection(); Statement s = c.createStatement()) {
                s.execute("DELETE FROM suppression");
                s.execute("DELETE FROM suppression_removal");
            }
        }
    }

    private CliHarness cli(TestDatabase on) {
        Map<String, String> env = new HashMap<>();
        env.put("MAILRUN_DB_URL", on.url());
        env.put("MAILRUN_DB_USER", on.user());
        env.put("MAILRUN_DB_PASSWORD", on.password());
        env.put("MAILRUN_UNSUBSCRIBE_SECRET", "a-test-secret-that-is-long-enough-0123456789");
        env.put("MAILRUN_UNSUBSCRIBE_BASE_URL", "https://unsubscribe.sender.example");
        return new CliHarness(env, clock);
    }

    private CliHarness.Result run(String... args) {
        return cli(db).run(args);
    }

    private Path csv(String name, String content) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, content, StandardCharsets.UTF_8);
        return f;
    }

    private static void suppress(DataSource ds, String address, SuppressionReason reason, String source, Instant at)
            throws Exception {
        Transactions.inTransaction(ds, c -> new SuppressionTable().add(c,
                List.of(new SuppressionTable.Entry(address, reason, source)), at));
    }

    private static Set<String> addressesWithReasons(DataSource ds) throws Exception {
        Set<String> rows = new HashSet<>();
        try (Connection c = ds.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT address, reason FROM suppression")) {
            while (rs.next()) {
                rows.add(rs.getString(1) + " " + rs.getString(2));
            }
        }
        return rows;
    }

    private static List<CSVRecord> records(String csv) throws Exception {
        return CSVFormat.RFC4180.parse(new StringReader(csv)).getRecords();
    }

    @Test
    void import_prints_one_summary_line_with_counts_by_reason_and_says_on_a_second_run_that_nothing_was_added() throws Exception {
        suppress(db.dataSource(), "known@example.com", SuppressionReason.HARD_BOUNCE, "bounce:campaign=1 status=5.1.1",
                Instant.parse("2026-01-01T00:00:00Z"));
        Path file = csv("old-provider.csv", """
                email,name
                new@example.com,New
                not-an-address,Broken
                New@Example.com,Same again
                known@example.com,Known
                """);
        Path rejects = dir.resolve("rejects.csv");

        CliHarness.Result first = run("suppressions", "import", file.toString(), "--rejects", rejects.toString());

        assertThat(first.exitCode()).as(first.err()).isZero();
        assertThat(first.out().lines()).containsExactly(
                "read 4 rows (address column email): suppressed 1, already suppressed 1, rejected 2 "
                        + "(invalid syntax 1, duplicate in file 1)",
                "  line 3: not-an-address - invalid syntax (expected local-part@domain)",
                "  line 4: New@Example.com - duplicate in file (first at line 2)");
        assertThat(Files.readAllLines(rejects)).containsExactly("line,email,reason,detail",
                "3,not-an-address,invalid syntax,expected local-part@domain",
                "4,New@Example.com,duplicate in file,first at line 2");
        assertThat(addressesWithReasons(db.dataSource())).containsExactlyInAnyOrder("new@example.com imported",
                "known@example.com hard_bounce");
        assertThat(run("suppressions", "check", "new@example.com").out())
                .isEqualTo("new@example.com is suppressed: imported since 2026-11-21T10:00:00Z, source import:old-provider.csv\n");

        CliHarness.Result again = run("suppressions", "import", file.toString(), "--reason", "complaint");

        assertThat(again.exitCode()).as(again.err()).isZero();
        assertThat(again.out().lines().findFirst().orElseThrow()).isEqualTo("read 4 rows (address column email): "
                + "suppressed 0, already suppressed 2, rejected 2 (invalid syntax 1, duplicate in file 1)");
        assertThat(addressesWithReasons(db.dataSource())).containsExactlyInAnyOrder("new@example.com imported",
                "known@example.com hard_bounce");
    }

    @Test
    void import_shows_a_huge_value_cut_like_a_recipient_import_and_the_rejects_file_keeps_it_whole() throws Exception {
        String huge = "x".repeat(5 * 1024 * 1024) + "@example.com";
        Path file = csv("huge.csv", "email,name\n" + huge + ",Huge\nok@example.com,Ok\n");
        Path rejects = dir.resolve("huge-rejects.csv");

        CliHarness.Result r = run("suppressions", "import", file.toString(), "--rejects", rejects.toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out().lines()).hasSize(2).allSatisfy(line -> assertThat(line.length()).isLessThan(400));
        assertThat(r.out().lines().toList().get(1)).isEqualTo("  line 2: " + "x".repeat(200) + "… (" + huge.length()
                + " bytes) - too long (local part exceeds 64 octets)");
        assertThat(Files.readString(rejects)).contains(huge);
    }

    @Test
    void import_usage_mistakes_exit_2_with_one_line() throws Exception {
        Path file = csv("list.csv", "email\na@example.com\n");

        CliHarness.Result badReason = run("suppressions", "import", file.toString(), "--reason", "bounced");
        assertThat(badReason.exitCode()).isEqualTo(2);
        assertThat(badReason.err().lines()).containsExactly("mailrun: --reason must be one of unsubscribed, hard_bounce, "
                + "complaint, manual, imported, got 'bounced'");

        Path unwritable = dir.resolve("no-such-dir").resolve("r.csv");
        CliHarness.Result noRejects = run("suppressions", "import", file.toString(), "--rejects", unwritable.toString());
        assertThat(noRejects.exitCode()).isEqualTo(2);
        assertThat(noRejects.err().lines()).containsExactly("mailrun: " + unwritable + ": cannot write the rejects file"
                + " (NoSuchFileException: " + unwritable + ")");
        assertThat(addressesWithReasons(db.dataSource())).as("nothing imported").isEmpty();

        CliHarness.Result missing = run("suppressions", "import", dir.resolve("nope.csv").toString());
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.err().lines()).containsExactly("mailrun: " + dir.resolve("nope.csv") + ": no such file");

        CliHarness.Result noColumn = run("suppressions", "import", csv("x.csv", "id,name\n1,A\n").toString());
        assertThat(noColumn.exitCode()).isEqualTo(2);
        assertThat(noColumn.err().lines()).singleElement().asString().contains("no email column in the header row");
        assertThat(addressesWithReasons(db.dataSource())).isEmpty();
    }

    @Test
    void a_list_exported_by_reason_and_imported_with_that_reason_into_a_fresh_database_is_the_same_list() throws Exception {
        // More rows than one export page, in every reason.
        List<SuppressionTable.Entry> entries = new ArrayList<>();
        SuppressionReason[] reasons = SuppressionReason.values();
        for (int i = 0; i < 2_600; i++) {
            entries.add(new SuppressionTable.Entry("reader" + i + "@example.com", reasons[i % reasons.length], "seed " + i));
        }
        Transactions.inTransaction(db.dataSource(), c -> new SuppressionTable().add(c, entries, Instant.parse("2026-05-01T00:00:00Z")));

        List<CSVRecord> all = records(run("suppressions", "export").out());
        assertThat(all).hasSize(2_601);
        assertThat(all.stream().skip(1).map(r -> r.get(0)).distinct().count()).isEqualTo(2_600);

        for (SuppressionReason reason : reasons) {
            Path file = dir.resolve(reason.dbValue() + ".csv");
            CliHarness.Result exported = run("suppressions", "export", "--reason", reason.dbValue(), file.toString());
            assertThat(exported.exitCode()).as(exported.err()).isZero();
            assertThat(exported.out()).isEqualTo("exported 520 suppression(s) to " + file + "\n");

            CliHarness.Result imported = cli(fresh).run("suppressions", "import", file.toString(), "--reason", reason.dbValue());
            assertThat(imported.exitCode()).as(imported.err()).isZero();
            assertThat(imported.out()).startsWith("read 520 rows (address column email): suppressed 520, already suppressed 0, rejected 0");
        }

        assertThat(addressesWithReasons(fresh.dataSource())).hasSize(2_600).isEqualTo(addressesWithReasons(db.dataSource()));
    }

    @Test
    void export_writes_email_reason_source_and_utc_created_at_in_address_order_and_since_keeps_the_later_ones() throws Exception {
        suppress(db.dataSource(), "b@example.com", SuppressionReason.COMPLAINT, "complaint:campaign=3", Instant.parse("2026-10-31T23:59:59.250Z"));
        suppress(db.dataSource(), "a@example.com", SuppressionReason.UNSUBSCRIBED, "unsubscribe:campaign=3", Instant.parse("2026-11-01T00:00:00Z"));
        suppress(db.dataSource(), "c@example.com", SuppressionReason.MANUAL, "said, \"stop\"", Instant.parse("2026-11-02T08:30:00Z"));

        CliHarness.Result all = run("suppressions", "export", "-");

        assertThat(all.exitCode()).as(all.err()).isZero();
        assertThat(all.out()).isEqualTo("""
                email,reason,source,created_at\r
                a@example.com,unsubscribed,unsubscribe:campaign=3,2026-11-01T00:00:00Z\r
                b@example.com,complaint,complaint:campaign=3,2026-10-31T23:59:59.250Z\r
                c@example.com,manual,"said, ""stop""\",2026-11-02T08:30:00Z\r
                """);
        assertThat(run("suppressions", "export").out()).isEqualTo(all.out());
        assertThat(records(run("suppressions", "export", "--since", "2026-11-01").out()))
                .extracting(r -> r.get(0)).containsExactly("email", "a@example.com", "c@example.com");
        assertThat(records(run("suppressions", "export", "--since", "2026-11-01T00:00:01Z", "--reason", "manual").out()))
                .extracting(r -> r.get(0)).containsExactly("email", "c@example.com");

        CliHarness.Result badSince = run("suppressions", "export", "--since", "yesterday");
        assertThat(badSince.exitCode()).isEqualTo(2);
        assertThat(badSince.err().lines()).containsExactly("mailrun: --since must be a date (2026-11-01, midnight UTC) or an "
                + "ISO-8601 instant (2026-11-01T10:00:00Z), got 'yesterday'");
        CliHarness.Result noDir = run("suppressions", "export", dir.resolve("missing/out.csv").toString());
        assertThat(noDir.exitCode()).isEqualTo(2);
        assertThat(noDir.err().lines()).singleElement().asString().contains("does not exist");
    }

    @Test
    void check_says_suppressed_or_not_with_reason_source_and_time_and_exits_0_either_way() throws Exception {
        suppress(db.dataSource(), "gone@example.com", SuppressionReason.HARD_BOUNCE, "bounce:campaign=4 status=5.1.1",
                Instant.parse("2026-11-20T09:00:00Z"));

        CliHarness.Result suppressed = run("suppressions", "check", "Gone@EXAMPLE.com");
        CliHarness.Result not = run("suppressions", "check", "here@example.com");
        CliHarness.Result invalid = run("suppressions", "check", "nobody");

        assertThat(suppressed.exitCode()).isZero();
        assertThat(suppressed.out()).isEqualTo("gone@example.com is suppressed: hard_bounce since 2026-11-20T09:00:00Z, "
                + "source bounce:campaign=4 status=5.1.1\n");
        assertThat(not.exitCode()).isZero();
        assertThat(not.out()).isEqualTo("here@example.com is not suppressed\n");
        assertThat(invalid.exitCode()).isEqualTo(2);
        assertThat(invalid.err().lines()).containsExactly("mailrun: 'nobody' is not a valid address: invalid syntax: "
                + "expected local-part@domain");
    }

    @Test
    void remove_needs_a_reason_records_the_removal_with_what_it_undid_and_refuses_an_address_not_on_the_list() throws Exception {
        suppress(db.dataSource(), "back@example.com", SuppressionReason.COMPLAINT, "complaint:campaign=9",
                Instant.parse("2026-11-01T12:00:00Z"));

        CliHarness.Result noWhy = run("suppressions", "remove", "back@example.com");
        assertThat(noWhy.exitCode()).isEqualTo(2);
        assertThat(noWhy.err()).contains("Missing required option: '--why=TEXT'");
        CliHarness.Result blankWhy = run("suppressions", "remove", "back@example.com", "--why", "  ");
        assertThat(blankWhy.exitCode()).isEqualTo(2);
        assertThat(blankWhy.err().lines()).containsExactly("mailrun: --why: must say why the address may be mailed again");
        assertThat(addressesWithReasons(db.dataSource())).containsExactly("back@example.com complaint");

        clock.set(Instant.parse("2026-11-21T10:15:00Z"));
        CliHarness.Result removed = run("suppressions", "remove", "Back@example.com", "--why", "ticket 4711: complaint was a mistake");

        assertThat(removed.exitCode()).as(removed.err()).isZero();
        assertThat(removed.out()).isEqualTo("removed back@example.com from the suppression list (was complaint since "
                + "2026-11-01T12:00:00Z, source complaint:campaign=9)\n");
        assertThat(addressesWithReasons(db.dataSource())).isEmpty();
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT address, reason, source, suppressed_at, why, removed_by, removed_at "
                     + "FROM suppression_removal")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("back@example.com");
            assertThat(rs.getString(2)).isEqualTo("complaint");
            assertThat(rs.getString(3)).isEqualTo("complaint:campaign=9");
            assertThat(SqlTime.get(rs, 4)).isEqualTo(Instant.parse("2026-11-01T12:00:00Z"));
            assertThat(rs.getString(5)).isEqualTo("ticket 4711: complaint was a mistake");
            assertThat(rs.getString(6)).isEqualTo(System.getProperty("user.name"));
            assertThat(SqlTime.get(rs, 7)).isEqualTo(Instant.parse("2026-11-21T10:15:00Z"));
            assertThat(rs.next()).isFalse();
        }
        assertThat(run("suppressions", "check", "back@example.com").out()).isEqualTo("back@example.com is not suppressed "
                + "(removed 2026-11-21T10:15:00Z by " + System.getProperty("user.name") + ": ticket 4711: complaint was a mistake)\n");

        CliHarness.Result notThere = run("suppressions", "remove", "back@example.com", "--why", "again");
        assertThat(notThere.exitCode()).isEqualTo(2);
        assertThat(notThere.err().lines()).containsExactly("mailrun: back@example.com is not on the suppression list");
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM suppression_removal")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(1);
        }
    }

    @Test
    void list_shows_the_newest_first_as_a_table_and_says_how_many_more_there_are() throws Exception {
        Instant t = Instant.parse("2026-11-01T00:00:00Z");
        for (int i = 0; i < 5; i++) {
            suppress(db.dataSource(), "r" + i + "@example.com", i % 2 == 0 ? SuppressionReason.HARD_BOUNCE : SuppressionReason.MANUAL,
                    "src " + i, t.plus(Duration.ofHours(i)));
        }

        CliHarness.Result two = run("suppressions", "list", "--limit", "2");
        CliHarness.Result bounces = run("suppressions", "list", "--reason", "hard_bounce");
        CliHarness.Result none = run("suppressions", "list", "--reason", "complaint");
        CliHarness.Result badLimit = run("suppressions", "list", "--limit", "0");

        assertThat(two.exitCode()).as(two.err()).isZero();
        assertThat(two.out().lines()).hasSize(4);
        assertThat(two.out().lines().toList().get(0)).startsWith("ADDRESS").contains("REASON").contains("CREATED").endsWith("SOURCE");
        assertThat(two.out().lines().toList().get(1)).startsWith("r4@example.com ").contains(" hard_bounce ")
                .contains(" 2026-11-01T04:00:00Z ").endsWith(" src 4");
        assertThat(two.out().lines().toList().get(2)).startsWith("r3@example.com ");
        assertThat(two.out().lines().toList().get(3)).isEqualTo("showing the newest 2 of 5 (--limit N for more, suppressions export for all)");
        assertThat(bounces.out().lines().skip(1).map(l -> l.substring(0, l.indexOf(' '))))
                .containsExactly("r4@example.com", "r2@example.com", "r0@example.com");
        assertThat(none.out()).isEqualTo("no suppressions match\n");
        assertThat(badLimit.exitCode()).isEqualTo(2);
        assertThat(badLimit.err().lines()).containsExactly("mailrun: --limit must be 1-10000, got 0");
    }

    @Test
    void suppressions_with_no_subcommand_prints_its_usage() {
        CliHarness.Result r = run("suppressions");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("import").contains("export").contains("list").contains("check").contains("remove");
    }

}
