package dev.mailrun.campaign.importing;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mailrun.campaign.content.PinnedTemplates;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.mail.HeaderValues;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.TestDatabase;
import java.io.ByteArrayOutputStream;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static dev.mailrun.testing.CsvJunk.junk;
import static dev.mailrun.testing.CsvJunk.quoted;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hostile files through the real importer and database: random bytes, truncated and damaged valid
 * files, huge fields, mixed line endings, byte-order marks, broken and hostile quoting. Every file
 * is either refused whole, with a one-line error and nothing imported, or each of its records is
 * imported or rejected exactly once, at the line it starts on, and every imported row is a pending
 * recipient as the README describes it. The seed is printed; repeat a failure with
 * {@code -Dmailrun.import.fuzz.seed=N}.
 */
class ImportFuzzTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final long SEED = Long.getLong("mailrun.import.fuzz.seed", 20_261_121L);
    private static final int ROUNDS = 70;
    private static final ImportSettings SMALL_LIMITS = ImportSettings.defaults().withLimits(4_096, 8_192);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> LABELS = Arrays.stream(RecipientRejectReason.values()).map(RecipientRejectReason::label)
            .collect(java.util.stream.Collectors.toSet());
    private static final String[] BREAKS = {"\n", "\r\n", "\r"};

    @TempDir
    Path dir;

    private final Clock clock = Clock.fixed(Instant.parse("2026-11-21T12:00:00Z"), ZoneOffset.UTC);

    /** How a round's file is made. */
    private enum Kind {
        RANDOM_BYTES(ImportFuzzTest::randomBytes),
        TRUNCATED(r -> truncated(r, validCsv(r, false))),
        DAMAGED(r -> damaged(r, validCsv(r, false))),
        HUGE_FIELDS(r -> utf8(validCsv(r, true))),
        LINE_ENDINGS_AND_BOMS(r -> utf8(validCsv(r, false))),
        HOSTILE_QUOTES(ImportFuzzTest::hostileQuotes),
        HOSTILE_HEADER(ImportFuzzTest::hostileHeader);

        final Function<Random, byte[]> make;

        Kind(Function<Random, byte[]> make) {
            this.make = make;
        }
    }

    @Test
    void every_hostile_file_is_refused_whole_or_each_of_its_rows_is_imported_or_rejected_exactly_once() throws Exception {
        System.out.printf("[fuzz] import seed=%d (repeat with -Dmailrun.import.fuzz.seed=%d)%n", SEED, SEED);
        Random seeds = new Random(SEED);
        Map<String, Integer> outcomes = new TreeMap<>();
        for (int round = 0; round < ROUNDS; round++) {
            Random r = new Random(seeds.nextLong());
            Kind kind = Kind.values()[round % Kind.values().length];
            String what = "seed " + SEED + " round " + round + " (" + kind + ")";
            Path file = dir.resolve("fuzz-" + round + ".csv");
            Files.write(file, kind.make.apply(r));
            try {
                outcomes.merge(kind + (importOnce(file, r.nextInt(1, 40), what) ? ": imported" : ": refused"), 1, Integer::sum);
            } catch (Exception | AssertionError e) {
                throw new AssertionError(what + ": " + e, e);
            }
        }
        System.out.printf("[fuzz] import seed=%d outcomes=%s%n", SEED, outcomes);
    }

    /** Imports one file and checks the outcome; true when it was imported, false when refused whole. */
    private boolean importOnce(Path file, int batch, String what) throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "fuzz");
        Path rejects = file.resolveSibling(file.getFileName() + ".rejects");
        RecipientImporter importer = new RecipientImporter(db.dataSource(), new PinnedTemplates(db.dataSource(), Clock.systemUTC()),
                AddressFilter.none(), clock, SMALL_LIMITS.withBatchSize(batch));
        RecipientImportReport report;
        try {
            report = importer.importCsv(id, file, Optional.of(rejects), n -> {});
        } catch (ImportRefusedException e) {
            assertThat(e.getMessage()).as(what + ": the error").isNotBlank().doesNotContain("\n").doesNotContain("\r");
            assertThat(recipients(id)).as(what + ": refused, yet rows were imported").isEmpty();
            return false;
        }
        String text = decode(Files.readAllBytes(file));
        Parsed parsed = parse(text);
        List<Long> starts = parsed.starts();
        long lines = text.isEmpty() ? 1 : 1 + lineBreaks(text, text.length());

        assertThat(report.rows()).as(what + ": rows read").isEqualTo(starts.size())
                .isEqualTo(report.imported() + report.rejected());
        List<Map<String, Object>> rows = recipients(id);
        assertThat(rows).as(what + ": rows in the table").hasSize((int) report.imported());
        List<Long> decided = new ArrayList<>();
        List<CSVRecord> rejected;
        try (CSVParser p = CSVParser.parse(rejects, StandardCharsets.UTF_8,
                CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get())) {
            rejected = p.getRecords();
        }
        assertThat(rejected).as(what + ": rejects file").hasSize((int) report.rejected());
        for (CSVRecord rec : rejected) {
            assertThat(rec.get("reason")).as(what + ": a reason").isIn(LABELS);
            assertThat(rec.get("detail")).as(what + ": a detail").isNotBlank();
            decided.add(Long.parseLong(rec.get("line")));
        }
        Set<String> keys = new HashSet<>();
        for (Map<String, Object> row : rows) {
            assertPending(row, parsed.fieldColumns(), what);
            assertThat(keys.add((String) row.get("email_key"))).as(what + ": one recipient per address, ignoring case").isTrue();
            decided.add((Long) row.get("import_line"));
        }
        assertThat(decided).as(what + ": each record decided once, at the line it starts on (of " + lines + ")")
                .containsExactlyInAnyOrderElementsOf(starts);
        return true;
    }

    /** A recipient straight from an import: pending, untouched, holding only values that can be sent. */
    private static void assertPending(Map<String, Object> row, Set<String> fieldColumns, String what) throws Exception {
        String email = (String) row.get("email");
        String as = what + ": row " + row;
        assertThat(row.get("status")).as(as).isEqualTo("pending");
        assertThat(row.get("attempts")).as(as).isEqualTo(0);
        for (String untouched : List.of("next_attempt_at", "last_code", "last_error", "sent_at", "message_id")) {
            assertThat(row.get(untouched)).as(as + ": " + untouched).isNull();
        }
        assertThat(row.get("import_id")).as(as).isNotNull();
        assertThat(row.get("legacy_duplicate")).as(as).isEqualTo(0L);
        assertThat(EmailAddress.of(email).value()).as(as + ": the normalised address").isEqualTo(email);
        assertThat(row.get("email_key")).as(as).isEqualTo(email.toLowerCase(Locale.ROOT));
        String name = (String) row.get("name");
        if (name != null) {
            assertThat(name.length()).as(as).isLessThanOrEqualTo(200);
            assertThat(HeaderValues.check("To display name", name)).as(as).isEmpty();
        }
        if (fieldColumns.isEmpty()) {
            assertThat(row.get("fields")).as(as).isNull();
            return;
        }
        Map<String, String> fields = JSON.readValue((String) row.get("fields"), new TypeReference<>() {});
        assertThat(fields.keySet()).as(as).isEqualTo(fieldColumns);
        if (fields.containsKey("company")) {
            assertThat(HeaderValues.check("Subject", fields.get("company"))).as(as + ": company is in the subject").isEmpty();
        }
    }

    private static List<Map<String, Object>> recipients(long campaignId) throws Exception {
        List<Map<String, Object>> rows = new ArrayList<>();
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement("""
                SELECT email, email_key, legacy_duplicate, name, fields, status, attempts, next_attempt_at, last_code,
                       last_error, sent_at, message_id, import_id, import_line
                FROM recipient WHERE campaign_id = ?""")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Map<String, Object> row = new java.util.HashMap<>();
                    for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                        row.put(rs.getMetaData().getColumnLabel(i), rs.getObject(i));
                    }
                    rows.add(row);
                }
            }
        }
        return rows;
    }

    // ---- what the file holds, found without the importer --------------------------------------

    private static String decode(byte[] bytes) throws CharacterCodingException {
        String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        return text.startsWith("\uFEFF") ? text.substring(1) : text;
    }

    /** The merge-field columns of a file's header, and the line each of its records starts on. */
    private record Parsed(Set<String> fieldColumns, List<Long> starts) {}

    /**
     * The parser gives where the text before a record ends; the record starts at the first
     * character after that which is not a line break (blank lines are skipped, and a record cannot
     * start with a line break).
     */
    private static Parsed parse(String text) throws Exception {
        List<Long> starts = new ArrayList<>();
        Set<String> fieldColumns = new HashSet<>();
        CSVFormat format = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true)
                .setAllowMissingColumnNames(true).setIgnoreSurroundingSpaces(false).setIgnoreEmptyLines(true).get();
        try (CSVParser p = CSVParser.builder().setReader(new StringReader(text)).setFormat(format).get()) {
            p.getHeaderNames().stream().map(String::strip)
                    .filter(n -> !n.equalsIgnoreCase("email") && !n.equalsIgnoreCase("name")).forEach(fieldColumns::add);
            for (CSVRecord rec : p) {
                int at = (int) rec.getCharacterPosition();
                while (at < text.length() && (text.charAt(at) == '\r' || text.charAt(at) == '\n')) {
                    at++;
                }
                starts.add(1 + lineBreaks(text, at));
            }
        }
        return new Parsed(fieldColumns, starts);
    }

    /** Line breaks before {@code end}: CR LF, CR and LF each count once. */
    private static long lineBreaks(String text, int end) {
        long n = 0;
        for (int i = 0; i < end; i++) {
            char c = text.charAt(i);
            if (c == '\r' || (c == '\n' && (i == 0 || text.charAt(i - 1) != '\r'))) {
                n++;
            }
        }
        return n;
    }

    // ---- files -------------------------------------------------------------------------------

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] randomBytes(Random r) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (r.nextBoolean()) {
            out.writeBytes(utf8("email,name,company,city\n"));
        }
        byte[] noise = new byte[r.nextInt(2_000)];
        r.nextBytes(noise);
        if (r.nextBoolean()) {
            // Mostly ASCII: gets further than the UTF-8 check more often.
            for (int i = 0; i < noise.length; i++) {
                noise[i] = (byte) (noise[i] & 0x7f);
            }
        }
        out.writeBytes(noise);
        return out.toByteArray();
    }

    private static byte[] truncated(Random r, String valid) {
        byte[] bytes = utf8(valid);
        return Arrays.copyOf(bytes, r.nextInt(bytes.length + 1));
    }

    private static byte[] damaged(Random r, String valid) {
        byte[] bytes = utf8(valid);
        for (int i = 0, n = 1 + r.nextInt(4); i < n && bytes.length > 0; i++) {
            byte[] damage = {'"', ',', '\r', '\n', 0, (byte) 0xff, (byte) 0xc3};
            bytes[r.nextInt(bytes.length)] = damage[r.nextInt(damage.length)];
        }
        return bytes;
    }

    /** Valid RFC 4180: hostile values, quoted when they must be and sometimes when not, any line ends. */
    private static String validCsv(Random r, boolean huge) {
        StringBuilder b = new StringBuilder(r.nextInt(4) == 0 ? "\uFEFF" : "");
        List<String> header = new ArrayList<>(List.of("email", "name", "company", "city"));
        java.util.Collections.shuffle(header, r);
        b.append(String.join(",", header)).append(BREAKS[r.nextInt(3)]);
        List<String> earlier = new ArrayList<>();
        for (int i = 0, n = r.nextInt(120); i < n; i++) {
            if (r.nextInt(10) == 0) {
                b.append(BREAKS[r.nextInt(3)]);
            }
            Map<String, String> row = Map.of("email", email(r, i, earlier), "name", value(r, huge),
                    "company", value(r, huge), "city", value(r, huge));
            List<String> fields = new ArrayList<>();
            header.forEach(column -> fields.add(field(r, row.get(column))));
            if (r.nextInt(25) == 0) {
                fields.remove(fields.size() - 1);
            }
            b.append(String.join(",", fields)).append(BREAKS[r.nextInt(3)]);
        }
        return b.toString();
    }

    private static String email(Random r, int i, List<String> earlier) {
        String email = switch (r.nextInt(8)) {
            case 0 -> junk(r, 5);
            case 1 -> earlier.isEmpty() ? "first@list.example" : earlier.get(r.nextInt(earlier.size()));
            case 2 -> earlier.isEmpty() ? "First@List.example"
                    : earlier.get(r.nextInt(earlier.size())).toUpperCase(Locale.ROOT);
            case 3 -> " u" + i + "@list.example\t";
            case 4 -> "u" + i + junk(r, 2) + "@list.example";
            default -> "u" + i + "@list.example";
        };
        earlier.add(email);
        return email;
    }

    private static String value(Random r, boolean huge) {
        if (huge && r.nextInt(8) == 0) {
            return "h".repeat(r.nextInt(1_000, 9_000)) + junk(r, 2);
        }
        return r.nextBoolean() ? junk(r, 6) : "Plain " + r.nextInt(1_000);
    }

    private static String field(Random r, String value) {
        boolean mustQuote = value.contains("\"") || value.contains(",") || value.contains("\r") || value.contains("\n");
        return mustQuote || r.nextInt(4) == 0 ? quoted(value) : value;
    }

    /** Quoting an RFC 4180 parser must refuse or read exactly: stray, doubled and unterminated quotes. */
    private static byte[] hostileQuotes(Random r) {
        StringBuilder b = new StringBuilder("email,name,company,city\r\n");
        String[] pieces = {"\"", "\"\"", "\"a\"b", "a\"b", "\"\r\n\"", ",\"", "\",", "\"\"\"", "x@y.example"};
        for (int i = 0, n = r.nextInt(40); i < n; i++) {
            b.append("q").append(i).append("@list.example,");
            for (int k = 0, m = r.nextInt(4); k < m; k++) {
                b.append(pieces[r.nextInt(pieces.length)]);
            }
            b.append(",Acme,Oslo").append(BREAKS[r.nextInt(3)]);
        }
        return utf8(b.toString());
    }

    /** Header rows an operator could never have meant: junk names, repeated names, an email column among junk. */
    private static byte[] hostileHeader(Random r) {
        List<String> names = new ArrayList<>();
        for (int i = 0, n = r.nextInt(1, 5); i < n; i++) {
            names.add(switch (r.nextInt(4)) {
                case 0 -> quoted(junk(r, 4));
                case 1 -> "email";
                case 2 -> quoted(" Email\r\n");
                default -> "c" + r.nextInt(3);
            });
        }
        return utf8(String.join(",", names) + BREAKS[r.nextInt(3)] + "a@list.example" + ",x".repeat(names.size() - 1) + "\n");
    }
}
