package dev.mailrun.campaign.importing;

import dev.mailrun.campaign.content.PinnedTemplates;
import dev.mailrun.campaign.model.SuppressionReason;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.csv.RejectedRow;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.TestDatabase;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongConsumer;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.groups.Tuple.tuple;

class RecipientImporterTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @TempDir
    Path dir;

    private final Clock clock = Clock.fixed(Instant.parse("2026-11-21T12:00:00Z"), ZoneOffset.UTC);

    private RecipientImporter importer(int batch) {
        return importer(db.dataSource(), ImportSettings.defaults().withBatchSize(batch));
    }

    private RecipientImporter importer(javax.sql.DataSource dataSource, ImportSettings settings) {
        return new RecipientImporter(dataSource, new PinnedTemplates(dataSource, Clock.systemUTC()), AddressFilter.none(), clock, settings);
    }

    private Path csv(String name, String content) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, content, StandardCharsets.UTF_8);
        return f;
    }

    private long count(long campaignId) throws Exception {
        return CampaignFixtures.recipientCount(db.dataSource(), campaignId);
    }

    /** A file of a header and {@code n} rows, row {@code i} made by {@code row}. */
    private Path numbered(String name, String header, int n, java.util.function.IntFunction<String> row) throws Exception {
        Path f = dir.resolve(name);
        try (BufferedWriter w = Files.newBufferedWriter(f)) {
            w.write(header + "\n");
            for (int i = 0; i < n; i++) {
                w.write(row.apply(i) + "\n");
            }
        }
        return f;
    }

    /** The first rejects as (line, reason, detail). */
    private static List<Tuple> rejects(RecipientImportReport report) {
        return report.firstRejects().stream().map(r -> tuple(r.line(), r.reason(), r.detail())).toList();
    }

    private static ImportStoppedException stopped(org.assertj.core.api.ThrowableAssert.ThrowingCallable importing) {
        return catchThrowableOfType(importing, ImportStoppedException.class);
    }

    @Test
    void a_file_without_an_email_column_fails_before_importing_anything() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "no-email");
        Path f = csv("no-email.csv", "mail,name\na@example.com,A\n");
        assertThatThrownBy(() -> importer(10).importCsv(id, f, Optional.empty(), n -> {}))
                .isInstanceOf(ImportFileException.class)
                .hasMessage(f + ": no email column in the header row (looked for email, email address, recipient, address; "
                        + "found: mail, name)");
        assertThat(count(id)).isZero();
    }

    @Test
    void columns_named_like_the_links_mailrun_fills_in_are_refused() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "built-in");
        for (String column : List.of("unsubscribe_url", "Web_URL")) {
            Path f = csv("built-in.csv", "email," + column + "\na@example.com,x\n");
            assertThatThrownBy(() -> importer(10).importCsv(id, f, Optional.empty(), n -> {}))
                    .isInstanceOf(ImportFileException.class)
                    .hasMessage(f + ": column '" + column + "' clashes with a built-in merge field");
        }
        assertThat(count(id)).isZero();
    }

    @Test
    void a_file_that_is_not_csv_fails_before_importing_anything_even_if_the_damage_is_at_the_end() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "broken");
        StringBuilder content = new StringBuilder("email,name\n");
        for (int i = 0; i < 50; i++) {
            content.append("ok").append(i).append("@example.com,Ok\n");
        }
        content.append("\"unterminated@example.com,Oops\n");                 // line 52
        content.append("late@example.com,\"Late, Quoted\"\n");              // line 53: where the parser stops
        Path f = csv("broken.csv", content.toString());
        assertThatThrownBy(() -> importer(10).importCsv(id, f, Optional.empty(), n -> {}))
                .isInstanceOf(ImportFileException.class)
                .hasMessageStartingWith(f + ": not a valid CSV file: the record starting on line 52 has a quote that does not close");
        assertThat(count(id)).isZero();
    }

    @Test
    void binary_content_is_refused_as_not_utf8() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "binary");
        Path f = dir.resolve("binary.csv");
        Files.write(f, new byte[] {'e', 'm', 'a', 'i', 'l', '\n', (byte) 0xC3, (byte) 0x28, (byte) 0xFF, '\n'});
        assertThatThrownBy(() -> importer(10).importCsv(id, f, Optional.empty(), n -> {}))
                .isInstanceOf(ImportFileException.class).hasMessageContaining("not UTF-8");
    }

    @Test
    void every_kind_of_bad_row_is_reported_with_its_line_and_the_good_rows_are_imported() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "mixed");
        long other = CampaignFixtures.campaign(db.dataSource(), "other");
        Transactions.inTransaction(db.dataSource(), c -> new SuppressionTable().add(c,
                List.of(new SuppressionTable.Entry("gone@example.com", SuppressionReason.UNSUBSCRIBED, "test")), clock.instant()));
        Path existing = csv("existing.csv", "email\nalready@example.com\n");
        importer(10).importCsv(id, existing, Optional.empty(), n -> {});

        Path f = csv("mixed.csv", String.join("\r\n",
                "Email,Name,city",                              // 1
                "good1@example.com,Good One,Oslo",              // 2
                "not-an-address,Bad,Oslo",                      // 3
                "a".repeat(65) + "@example.com,Long,Oslo",      // 4
                "good1@EXAMPLE.com,Dup,Oslo",                   // 5 duplicate of line 2 (same batch)
                "already@example.com,Again,Oslo",               // 6 in campaign before this import
                "Gone@Example.com,Suppressed,Oslo",             // 7
                "short@example.com,Short",                      // 8 wrong field count
                "multi@example.com,\"Line\nBreak\",Oslo",          // 9-10 quoted line break in the name
                "good2@example.com,\"Two, with comma\",Bergen", // 11
                "good3@bücher.example,Idn,Trondheim",           // 12
                "good2@example.com,Dup later,Bergen",           // 13 duplicate of line 11 (next batch)
                ""));
        Path rejects = dir.resolve("rejects.csv");
        RecipientImportReport report = importer(4).importCsv(id, f, Optional.of(rejects), n -> {});

        assertThat(report.rows()).isEqualTo(11);
        assertThat(report.imported()).isEqualTo(3);
        assertThat(report.rejected()).isEqualTo(8);
        assertThat(report.rows()).isEqualTo(report.imported() + report.rejected());
        assertThat(report.firstRejects()).extracting(RejectedRow::line, RejectedRow::reason)
                .containsExactlyInAnyOrder(
                        tuple(3L, RecipientRejectReason.INVALID_SYNTAX),
                        tuple(4L, RecipientRejectReason.TOO_LONG),
                        tuple(5L, RecipientRejectReason.DUPLICATE_IN_FILE),
                        tuple(6L, RecipientRejectReason.ALREADY_IN_CAMPAIGN),
                        tuple(7L, RecipientRejectReason.SUPPRESSED),
                        tuple(8L, RecipientRejectReason.WRONG_FIELD_COUNT),
                        tuple(9L, RecipientRejectReason.INVALID_FIELD),
                        tuple(13L, RecipientRejectReason.DUPLICATE_IN_FILE));
        List<String> rejectLines = Files.readAllLines(rejects);
        assertThat(rejectLines).hasSize(1 + 8);
        assertThat(rejectLines.get(0)).isEqualTo("line,email,reason,detail");
        assertThat(rejectLines).anySatisfy(l -> assertThat(l).startsWith("13,good2@example.com,duplicate in file,first at line 11"));

        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT email, name, fields FROM recipient WHERE campaign_id = ? ORDER BY id")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("already@example.com");
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("good1@example.com");
                assertThat(rs.getString(2)).isEqualTo("Good One");
                assertThat(new com.fasterxml.jackson.databind.ObjectMapper().readValue(rs.getString(3), Map.class))
                        .isEqualTo(Map.of("city", "Oslo"));
                rs.next();
                assertThat(rs.getString(2)).isEqualTo("Two, with comma");
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("good3@xn--bcher-kva.example");
                assertThat(rs.next()).isFalse();
            }
        }
        assertThat(count(other)).isZero();
    }

    @Test
    void importing_the_same_file_twice_imports_nothing_the_second_time() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "twice");
        Path f = csv("twice.csv", "email\na@example.com\nb@example.com\n");
        assertThat(importer(10).importCsv(id, f, Optional.empty(), n -> {}).imported()).isEqualTo(2);
        RecipientImportReport again = importer(10).importCsv(id, f, Optional.empty(), n -> {});
        assertThat(again.imported()).isZero();
        assertThat(again.rejectedByReason().get(RecipientRejectReason.ALREADY_IN_CAMPAIGN)).isEqualTo(2);
    }

    @Test
    void a_100000_row_file_is_imported_in_batches() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "large");
        Path f = dir.resolve("large.csv");
        try (BufferedWriter w = Files.newBufferedWriter(f)) {
            w.write("email,name,plan\n");
            for (int i = 0; i < 100_000; i++) {
                w.write("user" + i + "@example.org,User " + i + "," + (i % 3 == 0 ? "pro" : "free") + "\n");
            }
        }
        java.util.concurrent.atomic.AtomicLong lastProgress = new java.util.concurrent.atomic.AtomicLong();
        RecipientImportReport report = importer(ImportSettings.DEFAULT_BATCH).importCsv(id, f, Optional.empty(), lastProgress::set);
        assertThat(report.imported()).isEqualTo(100_000);
        assertThat(report.rejected()).isZero();
        assertThat(lastProgress.get()).isEqualTo(100_000);
        assertThat(count(id)).isEqualTo(100_000);
    }

    @Test
    void duplicates_near_and_far_are_each_reported_against_the_first_line_while_two_writers_insert() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "dups");
        Path f = dir.resolve("dups.csv");
        java.util.SplittableRandom random = new java.util.SplittableRandom(42);
        Map<String, Long> firstLine = new java.util.HashMap<>();
        Map<Long, Long> duplicateOf = new java.util.HashMap<>();
        List<String> distinct = new java.util.ArrayList<>();
        try (BufferedWriter w = Files.newBufferedWriter(f)) {
            w.write("email\n");
            for (long line = 2; line < 20_002; line++) {
                String email;
                // Every 7th row repeats an address from 1 to 600 rows back: in the same batch of
                // 50, the neighbouring batch written at the same time, or one committed long before.
                if (line % 7 == 0 && distinct.size() > 600) {
                    email = distinct.get(distinct.size() - 1 - random.nextInt(600));
                    duplicateOf.put(line, firstLine.get(email));
                } else {
                    email = "user" + line + "@example.org";
                    distinct.add(email);
                    firstLine.put(email, line);
                }
                w.write(email + "\n");
            }
        }
        Path rejects = dir.resolve("dups-rejects.csv");

        RecipientImportReport report = importer(50).importCsv(id, f, Optional.of(rejects), n -> {});

        assertThat(report.imported()).isEqualTo(distinct.size());
        assertThat(report.rejected()).isEqualTo(duplicateOf.size());
        assertThat(report.rejectedByReason().get(RecipientRejectReason.DUPLICATE_IN_FILE)).isEqualTo(duplicateOf.size());
        assertThat(count(id)).isEqualTo(distinct.size());
        Map<Long, String> reported = new java.util.HashMap<>();
        for (String l : Files.readAllLines(rejects).subList(1, 1 + duplicateOf.size())) {
            String[] parts = l.split(",");
            reported.put(Long.parseLong(parts[0]), parts[3]);
        }
        duplicateOf.forEach((line, first) -> assertThat(reported.get(line)).isEqualTo("first at line " + first));
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT email, import_line FROM recipient WHERE campaign_id = ?")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    assertThat(rs.getLong(2)).isEqualTo(firstLine.get(rs.getString(1)));
                }
            }
        }
    }

    @Test
    void rejects_name_the_line_a_record_starts_on_after_blank_lines_and_fields_spanning_lines() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "lines");
        Path f = csv("lines.csv", "email,name,city\n"  // 1
                + "a@example.com,A,\"Oslo\n"           // 2
                + "West\"\n"                           // 3
                + "\n"                                  // 4
                + "\r\n"                               // 5
                + "not-an-address,B,Oslo\n"            // 6
                + "c@example.com,\"C\r\n"              // 7: a name with a line break
                + "\r"                                  // 8
                + "X\",Bergen\r"                        // 9
                + "also-bad,D,\"x\r\ny\"\r\n"          // 10-11
                + "\n"                                  // 12
                + "short@example.com,E");               // 13, no line break at the end
        RecipientImportReport report = importer(10).importCsv(id, f, Optional.empty(), n -> {});
        assertThat(report.imported()).isEqualTo(1);
        assertThat(report.firstRejects()).extracting(RejectedRow::line, RejectedRow::reason)
                .containsExactlyInAnyOrder(
                        tuple(6L, RecipientRejectReason.INVALID_SYNTAX),
                        tuple(7L, RecipientRejectReason.INVALID_FIELD),
                        tuple(10L, RecipientRejectReason.INVALID_SYNTAX),
                        tuple(13L, RecipientRejectReason.WRONG_FIELD_COUNT));
    }

    @Test
    void addresses_differing_only_in_case_are_one_recipient_within_a_file_and_across_imports() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "case");
        importer(10).importCsv(id, csv("case1.csv", "email\nAnn@example.com\n"), Optional.empty(), n -> {});
        StringBuilder content = new StringBuilder("email\n")
                .append("ANN@example.com\n")       // 2: in the campaign already, as Ann@
                .append("Bob@example.com\n")       // 3
                .append("bob@EXAMPLE.com\n");      // 4: same batch as line 3
        for (int i = 5; i < 20; i++) {
            content.append("filler").append(i).append("@example.com\n");
        }
        content.append("BOB@example.com\n");       // 20: batches after line 3's
        RecipientImportReport report = importer(3).importCsv(id, csv("case2.csv", content.toString()), Optional.empty(), n -> {});

        assertThat(report.imported()).isEqualTo(1 + 15);
        assertThat(rejects(report)).containsExactlyInAnyOrder(
                tuple(2L, RecipientRejectReason.ALREADY_IN_CAMPAIGN, "already a recipient of campaign " + id),
                tuple(4L, RecipientRejectReason.DUPLICATE_IN_FILE, "first at line 3"),
                tuple(20L, RecipientRejectReason.DUPLICATE_IN_FILE, "first at line 3"));
        assertThat(count(id)).isEqualTo(1 + 1 + 15);
    }

    @Test
    void values_that_could_never_go_into_a_header_are_rejected_naming_the_field() throws Exception {
        // The campaign's template (welcome) puts company and name in the subject, and name is the To display name.
        long id = CampaignFixtures.campaign(db.dataSource(), "headers");
        Path f = csv("headers.csv", "email,name,company,notes\n"
                + "ok@example.com,Ann,ACME,\"two\nlines are fine in the body\"\n"       // 2-3
                + "bcc@example.com,Bob,\"ACME\r\nBcc: victim@evil.example\",x\n"      // 4-5
                + "nel@example.com,Ann\u0085Bcc: victim@evil.example,ACME,x\n"          // 6
                + "nul@example.com,Carl,AC\u0000ME,x\n");                               // 7
        RecipientImportReport report = importer(10).importCsv(id, f, Optional.empty(), n -> {});
        assertThat(report.imported()).isEqualTo(1);
        assertThat(rejects(report)).containsExactlyInAnyOrder(
                tuple(4L, RecipientRejectReason.INVALID_FIELD,
                        "field 'company': Subject: contains the control character U+000D (carriage return), which is not allowed in a header"),
                tuple(6L, RecipientRejectReason.INVALID_FIELD,
                        "field 'name': To display name: contains the control character U+0085 (next line), which is not allowed in a header"),
                tuple(7L, RecipientRejectReason.INVALID_FIELD,
                        "field 'company': Subject: contains the control character U+0000, which is not allowed in a header"));
    }

    @Test
    void rows_with_large_fields_go_in_through_statements_bounded_by_bytes_as_well_as_rows() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "wide");
        String notes = "n".repeat(20_000);
        Path f = numbered("wide.csv", "email,notes", 1_500, i -> "wide" + i + "@example.org," + notes);
        RecipientImportReport report = importer(ImportSettings.DEFAULT_BATCH).importCsv(id, f, Optional.empty(), n -> {});
        assertThat(report.imported()).isEqualTo(1_500);
        assertThat(count(id)).isEqualTo(1_500);
    }

    @Test
    void a_field_or_a_row_over_its_limit_rejects_the_row_naming_the_limit() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "limits");
        Path f = csv("limits.csv", "email,a,b\n"
                + "ok@example.com,x,y\n"                                                   // 2
                + "field@example.com," + "é".repeat(1_100) + ",y\n"                        // 3: 2,200 bytes in 1,100 characters
                + "row@example.com," + "a".repeat(2_000) + "," + "b".repeat(2_000) + "\n" // 4: 4,000 + the address
                + "fits@example.com," + "a".repeat(2_000) + "," + "b".repeat(2_000 - 16) + "\n");  // 5: 4,000 exactly
        RecipientImportReport report = importer(db.dataSource(), ImportSettings.defaults().withLimits(2_048, 4_000))
                .importCsv(id, f, Optional.empty(), n -> {});
        assertThat(report.imported()).isEqualTo(2);
        assertThat(rejects(report)).containsExactlyInAnyOrder(
                tuple(3L, RecipientRejectReason.TOO_LARGE,
                        "field 'a' holds 2200 bytes, more than the 2048 allowed (import.max-field-bytes)"),
                tuple(4L, RecipientRejectReason.TOO_LARGE,
                        "the row holds 4015 bytes, more than the 4000 allowed (import.max-row-bytes)"));
    }

    @Test
    void a_20_megabyte_field_rejects_its_row_and_the_others_are_imported() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "huge");
        Path f = csv("huge.csv", "email,notes\nbefore@example.com,x\nhuge@example.com," + "h".repeat(20 * 1024 * 1024)
                + "\nafter@example.com,y\n");
        Path rejects = dir.resolve("huge-rejects.csv");
        RecipientImportReport report = importer(10).importCsv(id, f, Optional.of(rejects), n -> {});
        assertThat(report.imported()).isEqualTo(2);
        assertThat(report.rejectedByReason().get(RecipientRejectReason.TOO_LARGE)).isEqualTo(1);
        assertThat(Files.readAllLines(rejects)).containsExactly("line,email,reason,detail",
                "3,huge@example.com,too large,\"field 'notes' holds 20971520 bytes, more than the 65536 allowed (import.max-field-bytes)\"");
    }

    @Test
    void an_import_that_loses_its_database_part_way_says_what_was_committed_and_running_it_again_finishes_it() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "lost");
        Path f = numbered("lost.csv", "email", 2_000, i -> "lost" + i + "@example.org");
        com.zaxxer.hikari.HikariDataSource pool = db.newPool("lost", 4);
        java.util.concurrent.atomic.AtomicInteger handed = new java.util.concurrent.atomic.AtomicInteger();
        // The fourth batch is handed over once the second has committed; then the database goes away.
        LongConsumer loseTheDatabase = n -> {
            if (handed.incrementAndGet() == 4) {
                pool.close();
            }
        };
        ImportStoppedException stopped = stopped(
                () -> importer(pool, ImportSettings.defaults().withBatchSize(100)).importCsv(id, f, Optional.empty(), loseTheDatabase));

        // A commit the connection was lost before confirming may have gone in or not: counted apart.
        long committed = count(id);
        assertThat(committed).isBetween(stopped.report().imported(), stopped.report().imported() + stopped.unconfirmed());
        assertThat(stopped.report().imported()).isGreaterThanOrEqualTo(200).isLessThan(2_000);
        assertThat(stopped.getMessage()).startsWith("import stopped after ").contains(", " + stopped.report().imported() + " of them imported")
                .endsWith("; run the same import again to finish it (rows already imported are then rejected as already in campaign)");

        RecipientImportReport again = importer(100).importCsv(id, f, Optional.empty(), n -> {});
        assertThat(again.imported()).isEqualTo(2_000 - committed);
        assertThat(again.rejectedByReason().get(RecipientRejectReason.ALREADY_IN_CAMPAIGN)).isEqualTo(committed);
        assertThat(count(id)).isEqualTo(2_000);
    }

    @Test
    void a_rejects_file_on_a_full_disk_stops_the_import_saying_what_was_committed() throws Exception {
        Path full = Path.of("/dev/full");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isWritable(full), "needs /dev/full");
        long id = CampaignFixtures.campaign(db.dataSource(), "full");
        Path f = numbered("full.csv", "email", 3_000, i -> i % 2 == 0 ? "full" + i + "@example.org" : "not-an-address-" + i);
        ImportStoppedException stopped = stopped(() -> importer(100).importCsv(id, f, Optional.of(full), n -> {}));
        assertThat(stopped.getMessage()).contains("No space left on device");
        assertThat(stopped.report().imported()).isEqualTo(count(id)).isLessThan(1_500);

        RecipientImportReport again = importer(100).importCsv(id, f, Optional.empty(), n -> {});
        assertThat(again.imported() + stopped.report().imported()).isEqualTo(1_500);
        assertThat(count(id)).isEqualTo(1_500);
    }

    @Test
    void a_campaign_cancelled_during_an_import_stops_it_at_the_next_batch() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "cancelled meanwhile");
        Path f = numbered("meanwhile.csv", "email", 1_000, i -> "m" + i + "@example.org");
        java.util.concurrent.atomic.AtomicInteger handed = new java.util.concurrent.atomic.AtomicInteger();
        LongConsumer cancel = n -> {
            if (handed.incrementAndGet() == 3) {
                try (Connection c = db.dataSource().getConnection();
                     PreparedStatement ps = c.prepareStatement("UPDATE campaign SET status = 'cancelled' WHERE id = ?")) {
                    ps.setLong(1, id);
                    ps.executeUpdate();
                } catch (java.sql.SQLException e) {
                    throw new IllegalStateException(e);
                }
            }
        };
        ImportStoppedException stopped = stopped(() -> importer(100).importCsv(id, f, Optional.empty(), cancel));
        assertThat(stopped.getMessage()).contains("campaign " + id + " is cancelled");
        assertThat(stopped.report().imported()).isEqualTo(count(id)).isLessThan(1_000);
    }

    @Test
    void a_header_row_that_is_not_valid_csv_or_names_columns_across_lines_fails_with_one_line() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "bad header");
        Path broken = csv("broken-header.csv", "email,\"name\"x,city\na@example.com,A,Oslo\n");
        assertThatThrownBy(() -> importer(10).importCsv(id, broken, Optional.empty(), n -> {}))
                .isInstanceOf(ImportFileException.class)
                .hasMessageStartingWith(broken + ": not a valid CSV file: Invalid character between encapsulated token and delimiter");
        Path lines = csv("lines-header.csv", "\"e\r\nmail\",\"\u001b[2J\"\na@example.com,A\n");
        assertThatThrownBy(() -> importer(10).importCsv(id, lines, Optional.empty(), n -> {}))
                .isInstanceOf(ImportFileException.class)
                .hasMessage(lines + ": no email column in the header row (looked for email, email address, recipient, address; "
                        + "found: e\\r\\nmail, \\u001B[2J)");
        assertThat(count(id)).isZero();
    }
    @Test
    void the_address_column_is_found_by_the_rule_suppression_imports_use() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "ses export");
        Path f = csv("ses.csv", "Name,Email Address,company\nAda,ada@example.com,Initech\n");

        RecipientImportReport report = importer(10).importCsv(id, f, Optional.empty(), n -> {});

        assertThat(report.imported()).isEqualTo(1);
        assertThat(count(id)).isEqualTo(1);
    }

    @Test
    void a_file_separated_by_semicolons_is_refused_with_the_delimiter_named() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "semicolons");
        Path f = csv("semicolons.csv", "email;name\na@example.com;A\n");
        assertThatThrownBy(() -> importer(10).importCsv(id, f, Optional.empty(), n -> {}))
                .isInstanceOf(ImportFileException.class)
                .hasMessageContaining("found: email;name")
                .hasMessageContaining("separated by ';'");
        assertThat(count(id)).isZero();
    }

    @Test
    void a_file_that_is_not_utf8_is_refused_naming_the_line() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "latin1");
        Path f = dir.resolve("latin1.csv");
        // Far enough in that the parser has decoded well past the line it is on.
        Files.write(f, ("email\n" + "ok@example.com\n".repeat(5000) + "j\u00f6rg@example.com\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        assertThatThrownBy(() -> importer(10).importCsv(id, f, Optional.empty(), n -> {}))
                .isInstanceOf(ImportFileException.class)
                .hasMessage(f + ": not UTF-8 text at line 5002");
    }

    @Test
    void a_refused_file_says_why_apart_from_its_path_so_an_upload_can_be_named_otherwise() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "reason");
        Path f = csv("reason.csv", "mail\na@example.com\n");
        ImportFileException e = catchThrowableOfType(() -> importer(10).importCsv(id, f, Optional.empty(), n -> {}),
                ImportFileException.class);
        assertThat(e.reason()).startsWith("no email column").doesNotContain(dir.toString());
        assertThat(e.getMessage()).isEqualTo(f + ": " + e.reason());
    }
}
