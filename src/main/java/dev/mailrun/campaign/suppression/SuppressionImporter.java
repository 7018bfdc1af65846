package dev.mailrun.campaign.suppression;

import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.model.SuppressionReason;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.csv.CsvFiles;
import dev.mailrun.csv.RejectLog;
import dev.mailrun.db.Transactions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.LongConsumer;
import javax.sql.DataSource;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * Puts the addresses of a CSV file (another system's suppression export, or a list of addresses
 * with a header row) on the suppression list.
 *
 * <ol>
 *   <li>A first pass reads the whole file for structure only (UTF-8, CSV quoting, an address
 *       column), so a file that is not CSV fails before anything is suppressed.</li>
 *   <li>A second pass streams the rows and writes them in batches bounded by rows and bytes, one
 *       {@code INSERT IGNORE} and one transaction each. Memory does not grow with the file: a
 *       repeat within a batch is seen by the reader, a repeat of an earlier batch by the import id
 *       and line stamped on every row it added.</li>
 *   <li>Every row is suppressed, found already suppressed, or rejected with its physical line and
 *       reason, in line order, to the report and, when asked, to a rejects CSV.</li>
 * </ol>
 *
 * Importing a file again adds nothing: every address is already suppressed.
 */
public final class SuppressionImporter {

    private final DataSource dataSource;
    private final SuppressionTable table;
    private final Clock clock;
    private final ImportBatch.Limits limits;

    public SuppressionImporter(DataSource dataSource, Clock clock) {
        this(dataSource, clock, ImportBatch.Limits.DEFAULT);
    }

    SuppressionImporter(DataSource dataSource, Clock clock, ImportBatch.Limits limits) {
        this.dataSource = dataSource;
        this.table = new SuppressionTable();
        this.clock = clock;
        this.limits = limits;
    }

    /** The source recorded on every row of an import of {@code file}. */
    static String source(Path file) {
        return "import:" + file.getFileName();
    }

    /**
     * @param progress called with the number of rows read so far after each batch
     * @throws SuppressionFileException when the file as a whole is unusable; nothing was imported then
     */
    public SuppressionImportReport importCsv(Path file, SuppressionReason reason, Optional<Path> rejectsFile, LongConsumer progress)
            throws IOException, SQLException {
        AddressColumn column = checkStructure(file);
        if (rejectsFile.isPresent() && Files.exists(rejectsFile.get()) && Files.isSameFile(file, rejectsFile.get())) {
            throw new SuppressionFileException(rejectsFile.get() + ": the rejects file cannot be the file being imported");
        }
        SuppressionTable.ImportStamp stamp = new SuppressionTable.ImportStamp(UUID.randomUUID().toString(), reason,
                source(file), clock.instant());
        Counts counts = new Counts();
        try (RejectLog<SuppressionRejectReason> rejects = RejectLog.to(SuppressionRejectReason.class, rejectsFile, SuppressionFileException::new);
             CSVParser parser = CsvFiles.open(file)) {
            ImportBatch batch = new ImportBatch(limits, stamp.source());
            for (CSVRecord record : parser) {
                counts.rows++;
                read(batch, record, CsvFiles.startLine(record, parser.getCurrentLineNumber()), column);
                if (batch.full()) {
                    write(batch, stamp, counts, rejects);
                    batch = new ImportBatch(limits, stamp.source());
                    progress.accept(counts.rows);
                }
            }
            write(batch, stamp, counts, rejects);
            progress.accept(counts.rows);
            return new SuppressionImportReport(column.name(), counts.rows, counts.suppressed, counts.already, rejects.counts(),
                    rejects.first());
        } catch (UncheckedIOException e) {
            throw new SuppressionFileException(file, "changed while it was imported: " + e.getCause().getMessage());
        }
    }

    private static void read(ImportBatch batch, CSVRecord record, long line, AddressColumn column) {
        String raw = column.index() < record.size() ? record.get(column.index()) : "";
        // A suppression needs only its address: a row that stops after it (no name) is read. One that
        // stops before it has none, and one with more fields than the header may have its columns shifted.
        if (record.size() <= column.index() || record.size() > column.width()) {
            batch.reject(line, raw, SuppressionRejectReason.WRONG_FIELD_COUNT, (record.size() <= column.index()
                    ? "no " + column.name() + " field: expected at least " + (column.index() + 1)
                    : "expected at most " + column.width()) + " fields, found " + record.size());
            return;
        }
        EmailAddress.Check check = EmailAddress.check(raw);
        if (check instanceof EmailAddress.Invalid invalid) {
            batch.reject(line, raw, invalid.kind() == EmailAddress.Kind.TOO_LONG ? SuppressionRejectReason.TOO_LONG
                    : SuppressionRejectReason.INVALID_SYNTAX, invalid.detail());
            return;
        }
        batch.add(line, raw, ((EmailAddress.Valid) check).address().suppressionKey());
    }

    // ---- pass 1: structure -------------------------------------------------------------------

    private static AddressColumn checkStructure(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new SuppressionFileException(file, "no such file");
        }
        long lastComplete = 1;
        try (CSVParser parser = CsvFiles.open(file)) {
            AddressColumn column = AddressColumn.find(file, parser.getHeaderNames());
            Iterator<CSVRecord> it = parser.iterator();
            lastComplete = parser.getCurrentLineNumber();
            while (it.hasNext()) {
                it.next();
                lastComplete = parser.getCurrentLineNumber();
            }
            return column;
        } catch (UncheckedIOException e) {
            if (e.getCause() instanceof CharacterCodingException) {
                throw unreadable(file, e.getCause());
            }
            throw new SuppressionFileException(file, "not a valid CSV file: "
                    + CsvFiles.invalidRecord(file, lastComplete, e.getCause().getMessage()));
        } catch (CharacterCodingException e) {
            throw unreadable(file, e);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new SuppressionFileException(file, "not a valid CSV file: " + firstLine(e.getMessage()));
        }
    }

    private static SuppressionFileException unreadable(Path file, Throwable cause) throws IOException {
        if (cause instanceof CharacterCodingException) {
            return new SuppressionFileException(file, CsvFiles.notUtf8(file));
        }
        return new SuppressionFileException(file, "not a valid CSV file: " + firstLine(cause.getMessage()));
    }

    private static String firstLine(String s) {
        return s == null ? "unreadable" : s.lines().findFirst().orElse(s);
    }

    // ---- pass 2: writing ---------------------------------------------------------------------

    private static final class Counts {
        long rows;
        long suppressed;
        long already;
    }

    /** What became of a batch's row; {@code firstLine} is where its address first occurs in the file. */
    private record Fate(Kind kind, long firstLine) {
        enum Kind { SUPPRESSED, ALREADY_SUPPRESSED, DUPLICATE, REFUSED }
    }

    /**
     * One transaction: the batch's {@code INSERT IGNORE}, and only when it added fewer rows than it
     * carried, one SELECT finding out why for each — an earlier line of this import (a duplicate),
     * or a suppression from before (already suppressed) — and the {@code recipient.suppressed} events
     * of the addresses it added, in the same transaction. Rejects are written once it committed.
     */
    private void write(ImportBatch batch, SuppressionTable.ImportStamp stamp, Counts counts, RejectLog<SuppressionRejectReason> rejects)
            throws SQLException, IOException {
        List<ImportBatch.Row> rows = batch.rows();
        Map<ImportBatch.Row, Fate> fates = rows.isEmpty() ? Map.of() : Transactions.inTransaction(dataSource, c -> {
            int inserted = table.insertImported(c, rows.stream()
                    .map(r -> new SuppressionTable.ImportedRow(r.key, r.line)).toList(), stamp);
            Map<String, Long> lines = inserted == rows.size() ? Map.of()
                    : table.importedLines(c, rows.stream().map(r -> r.key).toList(), stamp.importId());
            Map<ImportBatch.Row, Fate> decided = new HashMap<>();
            List<String> added = new ArrayList<>();
            for (ImportBatch.Row r : rows) {
                Fate fate = inserted == rows.size() ? new Fate(Fate.Kind.SUPPRESSED, r.line) : fate(r, lines.get(r.key));
                decided.put(r, fate);
                if (fate.kind() == Fate.Kind.SUPPRESSED) {
                    added.add(r.key);
                }
            }
            table.importedEvents(c, added, stamp);
            return decided;
        });
        for (ImportBatch.Line line : batch.lines()) {
            if (line instanceof ImportBatch.Invalid i) {
                rejects.reject(i.line(), i.raw(), i.reason(), i.detail());
            } else if (line instanceof ImportBatch.Duplicate d) {
                rejects.reject(d.line(), d.raw(), SuppressionRejectReason.DUPLICATE_IN_FILE, "first at line " + fates.get(d.first()).firstLine());
            } else {
                ImportBatch.Row r = (ImportBatch.Row) line;
                Fate fate = fates.get(r);
                switch (fate.kind()) {
                    case SUPPRESSED -> counts.suppressed++;
                    case ALREADY_SUPPRESSED -> counts.already++;
                    case DUPLICATE -> rejects.reject(r.line, r.raw, SuppressionRejectReason.DUPLICATE_IN_FILE, "first at line " + fate.firstLine());
                    case REFUSED -> rejects.reject(r.line, r.raw, SuppressionRejectReason.REFUSED_BY_DATABASE, "not added, and not on the list");
                }
            }
        }
    }

    /**
     * @param line the address's line in this import, -1 when it was on the list before, null when
     *             the row neither went in nor is on the list
     */
    private static Fate fate(ImportBatch.Row r, Long line) {
        if (line == null) {
            return new Fate(Fate.Kind.REFUSED, r.line);
        }
        if (line < 0) {
            return new Fate(Fate.Kind.ALREADY_SUPPRESSED, r.line);
        }
        return line == r.line ? new Fate(Fate.Kind.SUPPRESSED, r.line) : new Fate(Fate.Kind.DUPLICATE, line);
    }
}
