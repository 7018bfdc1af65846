package dev.mailrun.campaign.suppression;

import dev.mailrun.csv.RejectedRow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.campaign.model.SuppressionReason;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.db.Transactions;
import dev.mailrun.events.EventType;
import dev.mailrun.testing.Subscribed;
import dev.mailrun.testing.TestDatabase;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Suppression imports against the real database, from files in the export shapes of the providers
 * people move from (src/test/resources/suppressions: column names as each provider documents its
 * suppression export or API fields; the rows are made up).
 */
class SuppressionImporterTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @TempDir
    Path dir;

    private final Clock clock = Clock.fixed(Instant.parse("2026-11-21T12:00:00Z"), ZoneOffset.UTC);

    @BeforeEach
    void emptyList() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM suppression");
        }
    }

    private SuppressionImporter importer() {
        return new SuppressionImporter(db.dataSource(), clock);
    }

    private SuppressionImportReport importFile(Path file) throws Exception {
        return importer().importCsv(file, SuppressionReason.IMPORTED, Optional.empty(), n -> {});
    }

    private Path fixture(String name) throws Exception {
        Path f = dir.resolve(name);
        try (InputStream in = getClass().getResourceAsStream("/suppressions/" + name)) {
            Files.copy(in, f);
        }
        return f;
    }

    private Path csv(String name, String content) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, content, StandardCharsets.UTF_8);
        return f;
    }

    private List<String> rows() throws Exception {
        List<String> rows = new ArrayList<>();
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT address, reason, source, created_at FROM suppression ORDER BY address");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                rows.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getString(3) + " "
                        + dev.mailrun.db.SqlTime.get(rs, 4));
            }
        }
        return rows;
    }

    private List<String> addresses() throws Exception {
        return rows().stream().map(r -> r.substring(0, r.indexOf(' '))).toList();
    }

    static Stream<Arguments> providerExports() {
        return Stream.of(
                Arguments.of("ses-suppressed-destinations.csv", "EmailAddress",
                        List.of("bounced.one@example.com", "complained@example.org", "mixed.case@example.net")),
                Arguments.of("postmark-suppressions.csv", "EmailAddress",
                        List.of("asked.to.stop@example.com", "hard.bounce@example.com", "spam.complaint@example.com")),
                Arguments.of("sendgrid-bounces.csv", "email", List.of("gone@example.net", "nobody@example.com")),
                Arguments.of("sendgrid-global-unsubscribes.csv", "email", List.of("also.out@example.org", "opted.out@example.com")),
                Arguments.of("mailgun-bounces.csv", "address", List.of("alice@example.com", "bob@example.org")),
                Arguments.of("mailgun-unsubscribes.csv", "address", List.of("carol@example.com")),
                Arguments.of("listmonk-subscribers.csv", "email", List.of("blocked.reader@example.com", "quoted.reader@example.com")),
                Arguments.of("bounce-report-recipient.csv", "Recipient", List.of("first.bounce@example.com", "second.bounce@example.com")),
                Arguments.of("crm-email-address.csv", "Email Address", List.of("ada@example.com", "alan@example.org")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("providerExports")
    void each_provider_export_is_read_by_its_address_column_and_every_address_suppressed_lower_cased(
            String fixture, String column, List<String> addresses) throws Exception {
        Path file = fixture(fixture);

        SuppressionImportReport r = importFile(file);

        assertThat(r.addressColumn()).isEqualTo(column);
        assertThat(r.rejected()).as(r.firstRejects().toString()).isZero();
        assertThat(r.rows()).isEqualTo(addresses.size());
        assertThat(r.suppressed()).isEqualTo(addresses.size());
        assertThat(rows()).containsExactlyElementsOf(addresses.stream()
                .map(a -> a + " imported import:" + fixture + " 2026-11-21T12:00:00Z").toList());
    }

    @Test
    void importing_the_same_file_twice_adds_nothing_and_says_every_row_was_already_suppressed() throws Exception {
        Path file = fixture("postmark-suppressions.csv");
        assertThat(importFile(file).suppressed()).isEqualTo(3);
        List<String> before = rows();

        SuppressionImportReport again = importer().importCsv(file, SuppressionReason.COMPLAINT, Optional.empty(), n -> {});

        assertThat(again.rows()).isEqualTo(3);
        assertThat(again.suppressed()).isZero();
        assertThat(again.alreadySuppressed()).isEqualTo(3);
        assertThat(again.rejected()).isZero();
        assertThat(rows()).isEqualTo(before);
    }

    @Test
    void an_address_suppressed_by_a_bounce_keeps_its_reason_and_source_and_counts_as_already_suppressed() throws Exception {
        Transactions.inTransaction(db.dataSource(), c -> new SuppressionTable().add(c, List.of(new SuppressionTable.Entry(
                "nobody@example.com", SuppressionReason.HARD_BOUNCE, "bounce:campaign=7 status=5.1.1")),
                Instant.parse("2026-01-01T00:00:00Z")));

        SuppressionImportReport r = importer().importCsv(fixture("sendgrid-bounces.csv"), SuppressionReason.HARD_BOUNCE, Optional.empty(), n -> {});

        assertThat(r.suppressed()).isEqualTo(1);
        assertThat(r.alreadySuppressed()).isEqualTo(1);
        assertThat(rows()).containsExactly(
                "gone@example.net hard_bounce import:sendgrid-bounces.csv 2026-11-21T12:00:00Z",
                "nobody@example.com hard_bounce bounce:campaign=7 status=5.1.1 2026-01-01T00:00:00Z");
    }

    @Test
    void every_rejected_row_is_reported_with_its_physical_line_and_reason_in_line_order() throws Exception {
        Path file = csv("mixed.csv", String.join("\n",
                "email,note",                                     // 1
                "first@example.com,ok",                           // 2
                "",                                               // 3 blank: skipped, still counted as a line
                "not-an-address,bad",                             // 4
                "FIRST@Example.com,same address in other case",   // 5
                "\"multi@example.com\",\"spans",                  // 6
                "two lines\"",                                    // 7
                "short@example.com",                              // 8
                "x".repeat(65) + "@example.com,too long local part", // 9
                "multi@example.com,again",                        // 10
                "") + "\n");
        Path rejects = dir.resolve("rejects.csv");

        SuppressionImportReport r = importer().importCsv(file, SuppressionReason.IMPORTED, Optional.of(rejects), n -> {});

        assertThat(r.rows()).isEqualTo(7);
        assertThat(r.suppressed()).as("first, multi and short").isEqualTo(3);
        assertThat(r.rejectedByReason()).containsEntry(SuppressionRejectReason.INVALID_SYNTAX, 1L)
                .containsEntry(SuppressionRejectReason.DUPLICATE_IN_FILE, 2L).containsEntry(SuppressionRejectReason.TOO_LONG, 1L);
        assertThat(r.firstRejects()).extracting(RejectedRow::line).containsExactly(4L, 5L, 9L, 10L);
        assertThat(Files.readAllLines(rejects)).containsExactly(
                "line,email,reason,detail",
                "4,not-an-address,invalid syntax,expected local-part@domain",
                "5,FIRST@Example.com,duplicate in file,first at line 2",
                "9," + "x".repeat(65) + "@example.com,too long,local part exceeds 64 octets",
                "10,multi@example.com,duplicate in file,first at line 6");
    }

    @Test
    void a_duplicate_of_an_earlier_batch_is_found_by_the_database_and_names_the_first_line() throws Exception {
        StringBuilder content = new StringBuilder("email\n");
        for (int i = 0; i < 25; i++) {
            content.append("reader").append(i).append("@example.com\n");
        }
        content.append("Reader3@example.com\n");           // line 27: a repeat of line 5, three batches back
        content.append("reader24@example.com\n");          // line 28: a repeat of line 26, same batch as it? no: next one
        Path file = csv("batches.csv", content.toString());
        SuppressionImporter small = new SuppressionImporter(db.dataSource(), clock, new ImportBatch.Limits(7, 1 << 20));

        SuppressionImportReport r = small.importCsv(file, SuppressionReason.IMPORTED, Optional.empty(), n -> {});

        assertThat(r.rows()).isEqualTo(27);
        assertThat(r.suppressed()).isEqualTo(25);
        assertThat(r.alreadySuppressed()).isZero();
        assertThat(r.firstRejects()).extracting(RejectedRow::line, RejectedRow::detail)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(27L, "first at line 5"),
                        org.assertj.core.groups.Tuple.tuple(28L, "first at line 26"));
    }

    @Test
    void a_repeat_within_a_batch_of_an_address_first_seen_in_an_earlier_batch_names_the_earliest_line() throws Exception {
        // Lines 2..4 form the first batch; lines 5..7 the second, where line 5 repeats line 2 (found by the
        // database) and line 7 repeats line 5 (found by the reader): the first occurrence is line 2.
        Path file = csv("chain.csv", "email\na@example.com\nb@example.com\nc@example.com\nA@example.com\nd@example.com\na@EXAMPLE.com\n");
        SuppressionImporter small = new SuppressionImporter(db.dataSource(), clock, new ImportBatch.Limits(3, 1 << 20));

        SuppressionImportReport r = small.importCsv(file, SuppressionReason.IMPORTED, Optional.empty(), n -> {});

        assertThat(r.firstRejects()).extracting(RejectedRow::line, RejectedRow::detail)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(5L, "first at line 2"),
                        org.assertj.core.groups.Tuple.tuple(7L, "first at line 2"));
        assertThat(r.suppressed()).isEqualTo(4);
    }

    @Test
    void a_byte_order_mark_and_crlf_line_ends_are_read_like_any_other_file() throws Exception {
        Path file = dir.resolve("bom.csv");
        Files.write(file, ("\uFEFFEmail\r\nbom@example.com\r\n\r\nbad\r\n").getBytes(StandardCharsets.UTF_8));

        SuppressionImportReport r = importFile(file);

        assertThat(r.addressColumn()).isEqualTo("Email");
        assertThat(r.suppressed()).isEqualTo(1);
        assertThat(r.firstRejects()).extracting(RejectedRow::line).containsExactly(4L);
    }

    @Test
    void a_row_that_stops_after_its_address_is_suppressed_and_one_without_it_or_with_extra_fields_is_rejected() throws Exception {
        Path file = csv("short.csv", String.join("\n",
                "name,email,note",                  // 1
                "Ann,ann@example.org,ok",           // 2
                "Sup,sup121@example.org",           // 3 no note: a suppression needs only its address
                "Nobody",                           // 4 no address field at all
                "Extra,extra@example.org,a,b",      // 5 more fields than the header: columns may have shifted
                "") + "\n");

        SuppressionImportReport r = importFile(file);

        assertThat(r.suppressed()).isEqualTo(2);
        assertThat(addresses()).contains("ann@example.org", "sup121@example.org").doesNotContain("extra@example.org");
        assertThat(r.firstRejects()).extracting(RejectedRow::line, RejectedRow::detail).containsExactly(
                org.assertj.core.groups.Tuple.tuple(4L, "no email field: expected at least 2 fields, found 1"),
                org.assertj.core.groups.Tuple.tuple(5L, "expected at most 3 fields, found 4"));
    }

    @Test
    void an_unbalanced_quote_is_reported_at_the_line_it_opens_on() throws Exception {
        StringBuilder content = new StringBuilder("email,name\n");
        for (int i = 0; i < 40; i++) {
            content.append("ok").append(i).append("@example.com,Reader ").append(i).append('\n');   // lines 2-41
        }
        content.append("\"open@example.com,Open\n");                                                 // line 42
        for (int i = 0; i < 40; i++) {
            content.append("late").append(i).append("@example.com,Late\n");                      // lines 43-82
        }
        content.append("quoted@example.com,\"Quoted, Name\"\n");                                    // line 83
        Path file = csv("unbalanced.csv", content.toString());

        assertThatThrownBy(() -> importFile(file)).isInstanceOf(SuppressionFileException.class)
                .hasMessageStartingWith(file + ": not a valid CSV file: the record starting on line 42 has a quote that does not close"
                        + " where it should (the parser stopped with: Invalid character between encapsulated token and delimiter"
                        + " at line: 83,");
        assertThat(addresses()).isEmpty();
    }

    @Test
    void a_file_that_cannot_be_imported_fails_with_one_line_before_anything_is_suppressed() throws Exception {
        StringBuilder late = new StringBuilder("email\n");
        for (int i = 0; i < 50; i++) {
            late.append("ok").append(i).append("@example.com\n");
        }
        Path notCsv = csv("broken.csv", late + "\"unterminated@example.com\n");
        Path notUtf8 = dir.resolve("latin1.csv");
        // Far enough in that the parser has decoded well past the line it is on.
        Files.write(notUtf8, ("email\n" + "ok@example.com\n".repeat(5000) + "j\u00f6rg@example.com\n")
                .getBytes(StandardCharsets.ISO_8859_1));

        assertThatThrownBy(() -> importFile(notCsv)).isInstanceOf(SuppressionFileException.class)
                .hasMessageStartingWith(notCsv + ": not a valid CSV file");
        assertThatThrownBy(() -> importFile(notUtf8)).isInstanceOf(SuppressionFileException.class)
                .hasMessage(notUtf8 + ": not UTF-8 text at line 5002");
        assertThatThrownBy(() -> importFile(csv("nocol.csv", "mail,name\na@example.com,A\n")))
                .isInstanceOf(SuppressionFileException.class)
                .hasMessageEndingWith("nocol.csv: no email column in the header row (looked for email, email address, "
                        + "recipient, address; found: mail, name)");
        assertThatThrownBy(() -> importFile(csv("headless.csv", "a@example.com\nb@example.com\n")))
                .isInstanceOf(SuppressionFileException.class)
                .hasMessageEndingWith("headless.csv: the first line is an address, not a header row; "
                        + "add a first line naming the column (email)");
        assertThatThrownBy(() -> importFile(csv("two.csv", "Email,E-mail\na@example.com,b@example.com\n")))
                .isInstanceOf(SuppressionFileException.class)
                .hasMessageEndingWith("two.csv: header row has two address columns, 'Email' and 'E-mail'");
        assertThatThrownBy(() -> importFile(csv("empty.csv", "")))
                .isInstanceOf(SuppressionFileException.class)
                .hasMessageEndingWith("empty.csv: empty file; expected a header row with an email column");
        assertThatThrownBy(() -> importFile(dir.resolve("missing.csv")))
                .isInstanceOf(SuppressionFileException.class).hasMessageEndingWith("missing.csv: no such file");
        assertThat(rows()).isEmpty();
    }

    @Test
    void a_file_separated_by_semicolons_is_refused_with_the_delimiter_named() throws Exception {
        assertThatThrownBy(() -> importFile(csv("semicolons.csv", "email;name\na@example.com;A\n")))
                .isInstanceOf(SuppressionFileException.class)
                .hasMessageContaining("separated by ';'");
        assertThat(rows()).isEmpty();
    }

    @Test
    void the_first_matching_name_wins_so_a_postal_address_column_does_not_hide_the_email_column() throws Exception {
        SuppressionImportReport r = importFile(csv("crm.csv", "Name,Address,Email\nAda,\"12 St James's Square, London\",ada@example.com\n"));

        assertThat(r.addressColumn()).isEqualTo("Email");
        assertThat(r.suppressed()).isEqualTo(1);
        assertThat(rows()).singleElement().asString().startsWith("ada@example.com imported");
    }

    @Test
    void the_rejects_file_cannot_be_the_file_being_imported() throws Exception {
        Path file = fixture("mailgun-bounces.csv");
        assertThatThrownBy(() -> importer().importCsv(file, SuppressionReason.IMPORTED, Optional.of(file), n -> {}))
                .isInstanceOf(SuppressionFileException.class)
                .hasMessageEndingWith("the rejects file cannot be the file being imported");
        assertThat(Files.readAllLines(file)).hasSize(3);
    }

    @Test
    void an_import_writes_a_suppressed_event_for_each_address_it_added_and_none_for_those_on_the_list_before() throws Exception {
        Subscribed.to(db.dataSource(), java.util.Set.of(EventType.RECIPIENT_SUPPRESSED));
        try (Connection c = db.dataSource().getConnection(); Statement st = c.createStatement()) {
            st.execute("DELETE FROM event_outbox WHERE type = 'recipient.suppressed'");
        }
        Transactions.inTransaction(db.dataSource(), c -> new SuppressionTable().add(c, List.of(
                new SuppressionTable.Entry("before@events.example", SuppressionReason.MANUAL, "test")), clock.instant()));
        importFile(csv("events.csv", "email\nbefore@events.example\nfirst@events.example\nSecond@Events.example\n"
                + "first@events.example\n"));
        List<String> written = new ArrayList<>();
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT email, data FROM event_outbox WHERE type = 'recipient.suppressed' ORDER BY seq");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                written.add(rs.getString(1) + " " + rs.getString(2));
            }
        }
        assertThat(written).containsExactly(
                "before@events.example {\"reason\":\"manual\",\"source\":\"test\"}",
                "first@events.example {\"reason\":\"imported\",\"source\":\"import:events.csv\"}",
                "second@events.example {\"reason\":\"imported\",\"source\":\"import:events.csv\"}");
    }
}
