package dev.mailrun.campaign.importing;

import dev.mailrun.campaign.store.SuppressionTable;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Optional;
import java.util.UUID;
import java.util.function.LongConsumer;
import javax.sql.DataSource;

/**
 * Imports an RFC 4180 CSV file of recipients into a campaign.
 *
 * <ol>
 *   <li>{@link CsvFile} reads the whole file once for structure only (UTF-8, CSV quoting, an
 *       {@code email} column), so a file that is not CSV fails before anything is imported.</li>
 *   <li>A second pass streams the rows; {@link RowChecks} checks each on its own and
 *       {@link ImportPipeline} finds duplicates and hands batches to two writers
 *       ({@link BatchWriter}), which check the suppression list and the campaign's existing
 *       recipients in the database.</li>
 *   <li>Every row is imported or rejected with its line number and reason; rejects go to the
 *       report and, when asked, to a rejects CSV ({@link RejectsFile}).</li>
 * </ol>
 */
public final class RecipientImporter {

    public static final int DEFAULT_BATCH = 5_000;

    private final DataSource dataSource;
    private final SuppressionTable suppressions;
    private final AddressFilter filter;
    private final Clock clock;
    private final int batchSize;

    public RecipientImporter(DataSource dataSource, SuppressionTable suppressions, AddressFilter filter, Clock clock, int batchSize) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("import batch size must be at least 1, got " + batchSize);
        }
        this.dataSource = dataSource;
        this.suppressions = suppressions;
        this.filter = filter;
        this.clock = clock;
        this.batchSize = batchSize;
    }

    /**
     * @param progress called with the number of rows read so far after each batch
     * @throws ImportFileException when the file as a whole is unusable; nothing was imported then
     */
    public ImportReport importCsv(long campaignId, Path file, Optional<Path> rejectsFile, LongConsumer progress)
            throws IOException, SQLException {
        CsvFile csv = CsvFile.check(file);
        RowChecks checks = new RowChecks(csv.header(), filter);
        Optional<RejectsFile> rejects = rejectsFile.isPresent() ? Optional.of(RejectsFile.create(rejectsFile.get())) : Optional.empty();
        long rows = 0;
        try (Outcomes outcomes = new Outcomes(rejects);
             ImportPipeline pipeline = new ImportPipeline(new BatchWriter(dataSource, suppressions,
                     new BatchWriter.Target(campaignId, UUID.randomUUID().toString()), clock, outcomes), outcomes, batchSize);
             CsvFile.Records records = csv.records()) {
            while (records.hasNext()) {
                rows++;
                RowChecks.Result checked = checks.check(records.next());
                if (checked instanceof RowChecks.Rejected r) {
                    outcomes.reject(r.line(), r.rawEmail(), r.reason(), r.detail());
                } else if (pipeline.add(((RowChecks.Accepted) checked).row())) {
                    progress.accept(rows);
                }
            }
            pipeline.finish();
            progress.accept(rows);
            return outcomes.report(rows);
        }
    }
}
