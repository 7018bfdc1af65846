package dev.mailrun.campaign.audience;

import dev.mailrun.campaign.importing.AddressFilter;
import dev.mailrun.campaign.importing.CheckedRows;
import dev.mailrun.campaign.importing.ImportFileException;
import dev.mailrun.campaign.importing.ImportSettings;
import dev.mailrun.campaign.importing.RecipientRejectReason;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.store.audience.SubscriberImports;
import dev.mailrun.campaign.store.audience.SubscriberListTable;
import dev.mailrun.csv.RejectLog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.LongConsumer;
import javax.sql.DataSource;

/**
 * Imports a CSV file of people into a list, in one of the {@link ImportMode}s.
 *
 * <ol>
 *   <li>The file is read as the recipient import reads it ({@link CheckedRows}: the structure pass,
 *       then each row checked on its own, rejected for the same reasons); its columns other than the
 *       address and {@code name} are the subscribers' attributes, as strings, at most
 *       {@value Attributes#MAX_KEYS} of them, each row's at most {@value Attributes#MAX_BYTES} bytes.</li>
 *   <li>Rows are gathered into batches of {@value ImportBatch#MAX_ROWS} ({@link ImportBatch}); a
 *       repeat within a batch is seen there, a repeat of an earlier batch by the import's stamp on the
 *       subscriber ({@code subscriber.import_id}): memory does not grow with the file.</li>
 *   <li>Each batch is one transaction of batched statements ({@link ImportWriter}); its rows' fates and
 *       rejects are counted once it committed, every reject with its line, to the report and, when
 *       asked, to a rejects CSV.</li>
 * </ol>
 *
 * In add and update mode an address is rejected as the recipient import rejects it: suppressed, or
 * refused by the address filter. Unsubscribing and blocklisting take every valid address.
 */
public final class SubscriberImporter {

    private final DataSource dataSource;
    private final Clock clock;
    private final AddressFilter filter;
    private final ImportSettings settings;
    private final SubscriberListTable lists = new SubscriberListTable();

    /** @param settings the row size limits of every import ({@code import.max-field-bytes}, {@code import.max-row-bytes}) */
    public SubscriberImporter(DataSource dataSource, Clock clock, AddressFilter filter, ImportSettings settings) {
        this.dataSource = dataSource;
        this.clock = clock;
        this.filter = filter;
        this.settings = settings;
    }

    /**
     * @param progress called with the number of rows read so far after each batch
     * @throws InvalidFields              naming {@code list} (no such list) or {@code rejects} (the rejects
     *                                    file cannot be written); nothing was imported then
     * @throws ImportFileException        when the file as a whole cannot be imported; nothing was imported then
     * @throws SubscriberImportStoppedException when the import stopped part-way; its report counts what was committed
     */
    public SubscriberImportReport importCsv(String listName, ImportMode mode, Path file, Optional<Path> rejectsFile,
                                            LongConsumer progress) throws IOException, SQLException {
        SubscriberListTable.Stored list;
        try (Connection c = dataSource.getConnection()) {
            list = lists.find(c, listName == null ? "" : listName.strip()).orElseThrow(() -> Lists.unknown("list", listName));
        }
        Counts counts = new Counts(list.name(), mode);
        try (CheckedRows rows = CheckedRows.open(dataSource, file, mode.adds() ? filter : AddressFilter.none(), settings)) {
            ImportWriter writer = new ImportWriter(dataSource, clock, new ImportWriter.Target(list, mode, UUID.randomUUID().toString(),
                    String.valueOf(file.getFileName()), replaced(file, rows)));
            try (RejectLog<RecipientRejectReason> rejects = RejectLog.to(RecipientRejectReason.class, rejectsFile,
                    reason -> InvalidFields.of("rejects", reason))) {
                counts.rejects = rejects;
                try {
                    ImportBatch batch = new ImportBatch();
                    while (rows.hasNext()) {
                        counts.rows++;
                        CheckedRows.Result r = rows.next();
                        if (r instanceof CheckedRows.Rejected rej) {
                            rejects.reject(rej.line(), rej.rawEmail(), rej.reason(), rej.detail());
                        } else {
                            add(batch, (CheckedRows.Accepted) r, rejects);
                        }
                        if (batch.full()) {
                            write(writer, batch, counts);
                            batch = new ImportBatch();
                            progress.accept(counts.rows);
                        }
                    }
                    write(writer, batch, counts);
                } catch (IOException | SQLException | RuntimeException e) {
                    throw new SubscriberImportStoppedException(counts.report(), e);
                }
                progress.accept(counts.rows);
                return counts.report();
            }
        }
    }

    /** What an update replaces, from the file's columns; refuses a file whose columns cannot be attributes. */
    private static SubscriberImports.Replace replaced(Path file, CheckedRows rows) {
        List<String> names = rows.fieldNames();
        if (names.size() > Attributes.MAX_KEYS) {
            throw new ImportFileException(file, "the header row has " + names.size() + " attribute columns, more than the "
                    + Attributes.MAX_KEYS + " a subscriber may have");
        }
        for (String name : names) {
            Attributes.nameProblem(name).ifPresent(p -> {
                throw new ImportFileException(file, "column '" + name + "' cannot name an attribute: " + p);
            });
        }
        boolean name = rows.nameColumn().isPresent();
        boolean attributes = !names.isEmpty();
        return name && attributes ? SubscriberImports.Replace.NAME_AND_ATTRIBUTES : name ? SubscriberImports.Replace.NAME
                : attributes ? SubscriberImports.Replace.ATTRIBUTES : SubscriberImports.Replace.NOTHING;
    }

    /** Adds the row to the batch, or rejects it when its attributes are too large to keep. */
    private static void add(ImportBatch batch, CheckedRows.Accepted row, RejectLog<RecipientRejectReason> rejects) throws IOException {
        String json = row.fieldsJson();
        // Counted exactly only when three bytes a character might not fit.
        if (json != null && json.length() * 3L > Attributes.MAX_BYTES) {
            int bytes = json.getBytes(StandardCharsets.UTF_8).length;
            if (bytes > Attributes.MAX_BYTES) {
                rejects.reject(row.line(), row.rawEmail(), RecipientRejectReason.TOO_LARGE, "the attributes take " + bytes
                        + " bytes as JSON, more than the " + Attributes.MAX_BYTES + " a subscriber may have");
                return;
            }
        }
        batch.add(row);
    }

    private static void write(ImportWriter writer, ImportBatch batch, Counts counts) throws SQLException, IOException {
        ImportWriter.Outcome outcome = writer.write(batch.rows());
        outcome.fates().forEach(f -> counts.fates.merge(f, 1L, Long::sum));
        for (ImportWriter.Reject r : outcome.rejects()) {
            counts.rejects.reject(r.row().line(), r.row().rawEmail(), r.reason(), r.detail());
        }
        for (ImportBatch.Repeat r : batch.repeats()) {
            counts.rejects.reject(r.line(), r.rawEmail(), RecipientRejectReason.DUPLICATE_IN_FILE,
                    "first at line " + outcome.firstLines().get(r.key()));
        }
    }

    /** What the import decided so far: rows read, committed rows' fates, rejects. */
    private static final class Counts {
        final String list;
        final ImportMode mode;
        long rows;
        final Map<ImportWriter.Fate, Long> fates = new EnumMap<>(ImportWriter.Fate.class);
        RejectLog<RecipientRejectReason> rejects;

        Counts(String list, ImportMode mode) {
            this.list = list;
            this.mode = mode;
        }

        SubscriberImportReport report() {
            return new SubscriberImportReport(list, mode, rows, n(ImportWriter.Fate.IMPORTED), n(ImportWriter.Fate.SUBSCRIBED),
                    n(ImportWriter.Fate.UPDATED), n(ImportWriter.Fate.UNSUBSCRIBED), n(ImportWriter.Fate.BLOCKLISTED),
                    n(ImportWriter.Fate.UNCHANGED), rejects.counts(), rejects.first());
        }

        private long n(ImportWriter.Fate f) {
            return fates.getOrDefault(f, 0L);
        }
    }
}
