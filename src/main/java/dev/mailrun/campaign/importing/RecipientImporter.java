package dev.mailrun.campaign.importing;

import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.store.CampaignTable;
import dev.mailrun.campaign.store.RecipientTable;
import dev.mailrun.campaign.store.SuppressionTable;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mailrun.db.Transactions;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongConsumer;
import javax.sql.DataSource;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.CSVRecord;

/**
 * Imports an RFC 4180 CSV file of recipients into a campaign.
 *
 * <ol>
 *   <li>A first pass reads the whole file for structure only (UTF-8, CSV quoting, an {@code email}
 *       column), so a file that is not CSV fails before anything is imported.</li>
 *   <li>A second pass streams the rows, checks each address, and inserts in large batches, two
 *       writer connections taking every other batch. Memory does not grow with the file:
 *       duplicates within a batch and its neighbour are found by the reader, older ones in the
 *       database by the import id stamped on every row, not in a set held in memory.</li>
 *   <li>Every row is imported or rejected with its line number and reason; rejects go to the
 *       report and, when asked, to a rejects CSV.</li>
 * </ol>
 */
public final class RecipientImporter {

    public static final int DEFAULT_BATCH = 5_000;
    private static final int ROWS_PER_INSERT = 1_000;
    private static final int FIRST_REJECTS_KEPT = 20;
    private static final Set<String> BUILT_IN_FIELDS = Set.of("unsubscribe_url", "campaign");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final DataSource dataSource;
    private final SuppressionTable suppressions;
    private final RecipientTable recipients;
    private final CampaignTable campaigns = new CampaignTable();
    private final AddressFilter filter;
    private final Clock clock;
    private final int batchSize;
    private final ImportListener listener;

    public RecipientImporter(DataSource dataSource, SuppressionTable suppressions, AddressFilter filter, Clock clock, int batchSize) {
        this(dataSource, suppressions, filter, clock, batchSize, ImportListener.NONE);
    }

    private RecipientImporter(DataSource dataSource, SuppressionTable suppressions, AddressFilter filter, Clock clock,
                              int batchSize, ImportListener listener) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("import batch size must be at least 1, got " + batchSize);
        }
        this.dataSource = dataSource;
        this.suppressions = suppressions;
        this.recipients = new RecipientTable(suppressions);
        this.filter = filter;
        this.clock = clock;
        this.batchSize = batchSize;
        this.listener = listener;
    }

    /** The same importer, telling {@code listener} about every row accepted or rejected. */
    public RecipientImporter withListener(ImportListener listener) {
        return new RecipientImporter(dataSource, suppressions, filter, clock, batchSize, listener);
    }

    /**
     * @param progress called with the number of rows read so far after each batch
     * @throws ImportFileException when the file as a whole is unusable; nothing was imported then
     */
    public ImportReport importCsv(long campaignId, Path file, Optional<Path> rejectsFile, LongConsumer progress)
            throws IOException, SQLException {
        Header header = checkStructure(file);
        String importId = UUID.randomUUID().toString();
        Run run = new Run(campaignId, importId, header, rejectsFile.isPresent() ? openRejects(rejectsFile.get()) : null);
        // Parsing and checking the next batch overlaps with writing the previous ones, and two
        // writer connections each write every other batch: on one connection the server waits
        // while the client binds the next statement. Batch i starts only once batch i - 2 has
        // committed, so at most two neighbouring batches are in flight; the reader finds
        // duplicates within a batch and against the batch before it, and the database's
        // duplicate check sees every earlier batch committed.
        ExecutorService[] writers = {
                Executors.newSingleThreadExecutor(r -> new Thread(r, "mailrun-import-writer-1")),
                Executors.newSingleThreadExecutor(r -> new Thread(r, "mailrun-import-writer-2"))};
        Future<?>[] writing = {CompletableFuture.completedFuture(null), CompletableFuture.completedFuture(null)};
        int nextWriter = 0;
        try (CSVParser parser = parser(file)) {
            Iterator<CSVRecord> records = parser.iterator();
            long startLine = parser.getCurrentLineNumber() + 1;
            while (records.hasNext()) {
                CSVRecord record = records.next();
                run.accept(record, startLine);
                startLine = parser.getCurrentLineNumber() + 1;
                if (run.batch.size() >= batchSize) {
                    awaitWrite(writing[nextWriter]);
                    run.reportDuplicates(false);
                    List<Row> next = run.take();
                    writing[nextWriter] = writers[nextWriter].submit(() -> run.write(next));
                    nextWriter = 1 - nextWriter;
                    progress.accept(run.rows);
                }
            }
            awaitWrite(writing[nextWriter]);
            awaitWrite(writing[1 - nextWriter]);
            run.write(run.take());
            run.reportDuplicates(true);
            progress.accept(run.rows);
        } finally {
            for (ExecutorService writer : writers) {
                writer.shutdownNow();
            }
            if (run.rejects != null) {
                run.rejects.close(true);
            }
        }
        return new ImportReport(run.rows, run.imported.get(), run.counts, run.firstRejects);
    }

    private static void awaitWrite(Future<?> writing) throws SQLException, IOException {
        try {
            writing.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("import interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof SQLException sql) {
                throw sql;
            }
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(cause);
        }
    }

    // ---- pass 1: structure -------------------------------------------------------------------

    private record Header(String emailColumn, Optional<String> nameColumn, List<String> fieldColumns, int size) {}

    private Header checkStructure(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new ImportFileException(file + ": no such file");
        }
        try (CSVParser parser = parser(file)) {
            Header header = header(file, parser.getHeaderNames());
            Iterator<CSVRecord> it = parser.iterator();
            while (it.hasNext()) {
                it.next();
            }
            return header;
        } catch (UncheckedIOException e) {
            throw notCsv(file, e.getCause());
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new ImportFileException(file + ": not a valid CSV file: " + firstLine(e.getMessage()));
        } catch (CharacterCodingException e) {
            throw new ImportFileException(file + ": not UTF-8 text (" + e.getClass().getSimpleName() + ")");
        }
    }

    private static ImportFileException notCsv(Path file, Throwable cause) {
        if (cause instanceof CharacterCodingException) {
            return new ImportFileException(file + ": not UTF-8 text (" + cause.getClass().getSimpleName() + ")");
        }
        return new ImportFileException(file + ": not a valid CSV file: " + firstLine(cause.getMessage()));
    }

    private static Header header(Path file, List<String> names) {
        if (names.isEmpty()) {
            throw new ImportFileException(file + ": empty file; expected a header row with an email column");
        }
        String email = null;
        String name = null;
        List<String> fields = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String raw : names) {
            String n = raw.strip();
            String key = n.toLowerCase(Locale.ROOT);
            if (n.isEmpty()) {
                throw new ImportFileException(file + ": header row has an empty column name");
            }
            if (!seen.add(key)) {
                throw new ImportFileException(file + ": header row names column '" + n + "' twice");
            }
            if (key.equals("email")) {
                email = raw;
            } else if (key.equals("name")) {
                name = raw;
            } else if (BUILT_IN_FIELDS.contains(key)) {
                throw new ImportFileException(file + ": column '" + n + "' clashes with a built-in merge field");
            } else {
                fields.add(raw);
            }
        }
        if (email == null) {
            throw new ImportFileException(file + ": no email column in the header row (found: " + String.join(", ", names) + ")");
        }
        return new Header(email, Optional.ofNullable(name), fields, names.size());
    }

    private static CSVParser parser(Path file) throws IOException {
        CharsetDecoder strictUtf8 = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        Reader reader = new InputStreamReader(Files.newInputStream(file), strictUtf8);
        CSVFormat format = CSVFormat.RFC4180.builder()
                .setHeader()
                .setSkipHeaderRecord(true)
                .setAllowMissingColumnNames(true)
                .setIgnoreSurroundingSpaces(false)
                .setIgnoreEmptyLines(true)
                .get();
        return CSVParser.builder().setReader(skipBom(reader)).setFormat(format).get();
    }

    private static Reader skipBom(Reader reader) throws IOException {
        java.io.PushbackReader r = new java.io.PushbackReader(new java.io.BufferedReader(reader, 1 << 16), 1);
        int first = r.read();
        if (first != -1 && first != '\uFEFF') {
            r.unread(first);
        }
        return r;
    }

    private static CSVPrinter openRejects(Path path) throws IOException {
        BufferedWriter w = Files.newBufferedWriter(path, StandardCharsets.UTF_8);
        CSVPrinter p = new CSVPrinter(w, CSVFormat.RFC4180);
        p.printRecord("line", "email", "reason", "detail");
        return p;
    }

    private static String firstLine(String s) {
        return s == null ? "unreadable" : s.lines().findFirst().orElse(s);
    }

    // ---- pass 2: rows --------------------------------------------------------------------------

    /**
     * @param firstLine where this address first occurs in the file: set once the row's batch has
     *                  committed (this line, or an earlier one the database found), 0 until then
     */
    private record Row(long line, String rawEmail, EmailAddress address, String name, String fieldsJson,
                       java.util.concurrent.atomic.AtomicLong firstLine) {}

    /** A later row with the address of {@code first}, reported once {@code first}'s batch has committed. */
    private record Duplicate(long line, String rawEmail, Row first) {}

    /** @param firstLine for a duplicate in the file, the line of the first occurrence; else 0 */
    private record RowReject(Row row, RejectReason reason, String detail, long firstLine) {
        RowReject(Row row, RejectReason reason, String detail) {
            this(row, reason, detail, 0);
        }
    }

    /** A batch split into rows inserted and rows refused after looking at the database. */
    private record Sorted(List<Row> inserted, List<RowReject> rejected) {}

    /** The state of one import pass. */
    private final class Run {
        final long campaignId;
        final String importId;
        final Header header;
        final CSVPrinter rejects;
        final Map<RejectReason, Long> counts = ImportReport.emptyCounts();
        final List<ImportReport.Reject> firstRejects = new ArrayList<>();
        /** The batch being read; the reader thread's. */
        Map<String, Row> batch = new LinkedHashMap<>();
        /** Rows repeating an address of the batch being read or the one before; the reader's side. */
        final java.util.ArrayDeque<Duplicate> duplicates = new java.util.ArrayDeque<>();
        /** The batch handed to a writer last: it may be written alongside the one being read. */
        Map<String, Row> previousBatch = Map.of();
        long rows;
        /** Added to by both writers. */
        final java.util.concurrent.atomic.AtomicLong imported = new java.util.concurrent.atomic.AtomicLong();

        Run(long campaignId, String importId, Header header, CSVPrinter rejects) {
            this.campaignId = campaignId;
            this.importId = importId;
            this.header = header;
            this.rejects = rejects;
        }

        void accept(CSVRecord record, long line) throws IOException {
            rows++;
            String rawEmail = record.isSet(header.emailColumn()) ? record.get(header.emailColumn()) : "";
            if (record.size() != header.size()) {
                reject(line, rawEmail, RejectReason.WRONG_FIELD_COUNT,
                        "expected " + header.size() + " fields, found " + record.size());
                return;
            }
            EmailAddress.Check check = EmailAddress.check(rawEmail);
            if (check instanceof EmailAddress.Invalid invalid) {
                reject(line, rawEmail, invalid.kind() == EmailAddress.Kind.TOO_LONG ? RejectReason.TOO_LONG
                        : RejectReason.INVALID_SYNTAX, invalid.reason());
                return;
            }
            EmailAddress address = ((EmailAddress.Valid) check).address();
            Optional<AddressFilter.Rejection> filtered = filter.check(address);
            if (filtered.isPresent()) {
                reject(line, rawEmail, filtered.get().reason(), filtered.get().detail());
                return;
            }
            String name = header.nameColumn().map(record::get).map(String::strip).orElse(null);
            if (name != null && (name.length() > 200 || hasControl(name))) {
                reject(line, rawEmail, RejectReason.INVALID_FIELD, "name is longer than 200 characters or holds a line break");
                return;
            }
            Row previous = batch.get(address.value());
            if (previous == null) {
                previous = previousBatch.get(address.value());
            }
            if (previous != null) {
                // Reported once the earlier row's fate is known: it may itself turn out to repeat a
                // row from long before, and then that row is the first.
                duplicates.add(new Duplicate(line, rawEmail, previous));
                return;
            }
            batch.put(address.value(), new Row(line, rawEmail, address, name == null || name.isEmpty() ? null : name,
                    fields(record), new java.util.concurrent.atomic.AtomicLong()));
        }

        private String fields(CSVRecord record) {
            if (header.fieldColumns().isEmpty()) {
                return null;
            }
            Map<String, String> m = new LinkedHashMap<>();
            for (String column : header.fieldColumns()) {
                m.put(column.strip(), record.get(column));
            }
            try {
                return JSON.writeValueAsString(m);
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("cannot encode merge fields as JSON", e);
            }
        }

        /**
         * Reports the duplicates whose first row's batch has committed; the reader's side, after
         * waiting for a batch. With {@code all}, every batch has committed and none may be left.
         */
        void reportDuplicates(boolean all) throws IOException {
            for (java.util.Iterator<Duplicate> it = duplicates.iterator(); it.hasNext(); ) {
                Duplicate d = it.next();
                long first = d.first().firstLine().get();
                if (first > 0) {
                    reject(d.line(), d.rawEmail(), RejectReason.DUPLICATE_IN_FILE, "first at line " + first);
                    it.remove();
                }
            }
            if (all && !duplicates.isEmpty()) {
                throw new IllegalStateException(duplicates.size() + " duplicate rows were left unreported");
            }
        }

        /** The rows read since the last call, for {@link #write}; the reader thread's side. */
        List<Row> take() {
            List<Row> rowsInBatch = new ArrayList<>(batch.values());
            previousBatch = batch;
            batch = new LinkedHashMap<>();
            return rowsInBatch;
        }

        /** Writes one batch: the writer thread's side. Returns null (a Callable for the executor). */
        Void write(List<Row> rowsInBatch) throws SQLException, IOException {
            if (rowsInBatch.isEmpty()) {
                return null;
            }
            Instant now = clock.instant();
            Sorted sorted = Transactions.inTransaction(dataSource, c -> {
                if (!campaigns.lockShared(c, campaignId)) {
                    throw new ImportFileException("campaign " + campaignId + " does not exist");
                }
                Map<String, List<Row>> byKey = new HashMap<>();
                rowsInBatch.forEach(r -> byKey.computeIfAbsent(r.address().suppressionKey(), k -> new ArrayList<>()).add(r));
                Set<String> suppressed = suppressions.suppressedAmong(c, byKey.keySet());
                Sorted result = new Sorted(new ArrayList<>(rowsInBatch.size()), new ArrayList<>());
                List<Row> candidates = new ArrayList<>(rowsInBatch.size());
                for (Row r : rowsInBatch) {
                    if (suppressed.contains(r.address().suppressionKey())) {
                        result.rejected().add(new RowReject(r, RejectReason.SUPPRESSED, "address is on the suppression list"));
                    } else {
                        candidates.add(r);
                    }
                }
                insert(c, candidates, now, result);
                return result;
            });
            // Rejects are written only once the transaction committed, so a failed batch reports nothing twice.
            imported.addAndGet(sorted.inserted().size());
            listener.accepted(sorted.inserted().size());
            sorted.inserted().forEach(r -> r.firstLine().set(r.line()));
            sorted.rejected().forEach(r -> r.row().firstLine().set(r.firstLine() > 0 ? r.firstLine() : r.row().line()));
            for (RowReject r : sorted.rejected()) {
                reject(r.row().line(), r.row().rawEmail(), r.reason(), r.detail());
            }
            return null;
        }

        /**
         * Multi-row {@code INSERT IGNORE} statements of up to {@link #ROWS_PER_INSERT} rows. The
         * unique key on (campaign, email) decides duplicates: only when a statement inserted fewer
         * rows than it carried does one SELECT find out which rows already existed, and why — an
         * earlier line of this file, or an earlier import. A row that neither went in nor existed
         * is reported as refused; nothing is dropped silently.
         */
        private void insert(Connection c, List<Row> rows, Instant now, Sorted result) throws SQLException {
            try (RecipientTable.Inserts inserts = recipients.inserts(c, campaignId, importId, now)) {
                for (int from = 0; from < rows.size(); from += ROWS_PER_INSERT) {
                    List<Row> chunk = rows.subList(from, Math.min(rows.size(), from + ROWS_PER_INSERT));
                    int inserted = inserts.insert(chunk.stream()
                            .map(r -> new RecipientTable.NewRecipient(r.address().value(), r.name(), r.fieldsJson(), r.line()))
                            .toList());
                    sortInserted(c, chunk, inserted, result);
                }
            }
        }

        /** Rows a statement carried: inserted, or why not (looked up only when some did not go in). */
        private void sortInserted(Connection c, List<Row> chunk, int inserted, Sorted result) throws SQLException {
            if (inserted == chunk.size()) {
                result.inserted().addAll(chunk);
                return;
            }
            Map<String, Long> existing = recipients.importedLines(c, campaignId, importId,
                    chunk.stream().map(r -> r.address().value()).toList());
            for (Row r : chunk) {
                Long line = existing.get(r.address().value());
                if (line != null && line == r.line()) {
                    result.inserted().add(r);
                } else if (line == null) {
                    result.rejected().add(new RowReject(r, RejectReason.INVALID_FIELD, "refused by the database"));
                } else if (line >= 0) {
                    result.rejected().add(new RowReject(r, RejectReason.DUPLICATE_IN_FILE, "first at line " + line, line));
                } else {
                    result.rejected().add(new RowReject(r, RejectReason.ALREADY_IN_CAMPAIGN,
                            "already a recipient of campaign " + campaignId));
                }
            }
        }

        /** Called by both the reader (row checks) and the writer (database checks). */
        synchronized void reject(long line, String email, RejectReason reason, String detail) throws IOException {
            counts.merge(reason, 1L, Long::sum);
            listener.rejected(reason);
            ImportReport.Reject r = new ImportReport.Reject(line, email, reason, detail);
            if (firstRejects.size() < FIRST_REJECTS_KEPT) {
                firstRejects.add(r);
            }
            if (rejects != null) {
                rejects.printRecord(line, email, reason.label(), detail);
            }
        }
    }

    private static boolean hasControl(String s) {
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch < 0x20 || ch == 0x7f) {
                return true;
            }
        }
        return false;
    }
}
