package dev.mailrun.campaign.importing;

import dev.mailrun.csv.RejectLog;
import dev.mailrun.mail.template.CompiledTemplate;
import dev.mailrun.mail.template.TemplateLoader;
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
 *   <li>{@link CampaignCheck} refuses a campaign that will not send what is imported: one that is
 *       completed or cancelled, or whose template needs a field the file has no column for.</li>
 *   <li>{@link CsvFile} reads the whole file once for structure only (UTF-8, CSV quoting, an
 *       {@code email} column), so a file that is not CSV fails before anything is imported.</li>
 *   <li>A second pass streams the rows; {@link RowChecks} checks each on its own and
 *       {@link ImportPipeline} finds duplicates and hands batches to two writers
 *       ({@link BatchWriter}), which check the suppression list and the campaign's existing
 *       recipients in the database.</li>
 *   <li>Every row is imported or rejected with its line number and reason; rejects go to the
 *       report and, when asked, to a rejects CSV ({@link RejectLog}).</li>
 * </ol>
 */
public final class RecipientImporter {

    private final DataSource dataSource;
    private final CampaignCheck campaignCheck;
    private final AddressFilter filter;
    private final Clock clock;
    private final ImportSettings settings;
    private final TemplateLoader templates;
    private final ImportListener listener;

    public RecipientImporter(DataSource dataSource, TemplateLoader templates, AddressFilter filter, Clock clock,
                             ImportSettings settings) {
        this(dataSource, templates, filter, clock, settings, ImportListener.NONE);
    }

    private RecipientImporter(DataSource dataSource, TemplateLoader templates, AddressFilter filter, Clock clock,
                              ImportSettings settings, ImportListener listener) {
        this.dataSource = dataSource;
        this.templates = templates;
        this.campaignCheck = new CampaignCheck(dataSource, templates);
        this.filter = filter;
        this.clock = clock;
        this.settings = settings;
        this.listener = listener;
    }

    /** The same importer, telling {@code listener} about every row accepted or rejected. */
    public RecipientImporter withListener(ImportListener listener) {
        return new RecipientImporter(dataSource, templates, filter, clock, settings, listener);
    }

    /**
     * @param progress called with the number of rows read so far after each batch
     * @throws ImportRefusedException when the campaign cannot take the import, or the file as a whole
     *                                is unusable ({@link ImportFileException}); nothing was imported then
     * @throws ImportStoppedException  when the import stopped part-way; its report counts what was committed
     */
    public RecipientImportReport importCsv(long campaignId, Path file, Optional<Path> rejectsFile, LongConsumer progress)
            throws IOException, SQLException {
        CompiledTemplate template = campaignCheck.openCampaign(campaignId);
        CsvFile csv = CsvFile.check(file);
        CampaignCheck.requireFields(file, template, csv.header());
        StatementSize statement = StatementSize.of(dataSource);
        RowChecks checks = new RowChecks(csv.header(), filter, template.subjectFields(),
                new RowSize(csv.header().columns(), settings, statement));
        Outcomes outcomes = new Outcomes(RejectLog.to(RecipientRejectReason.class, rejectsFile, ImportRefusedException::new), listener);
        long rows = 0;
        try (outcomes;
             ImportPipeline pipeline = new ImportPipeline(new BatchWriter(dataSource,
                     new BatchWriter.Target(campaignId, UUID.randomUUID().toString()), clock, outcomes, statement.bytes()),
                     outcomes, settings.batchSize());
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
        } catch (IOException | SQLException | RuntimeException e) {
            throw new ImportStoppedException(outcomes.report(rows), outcomes.unconfirmed(), e);
        }
        progress.accept(rows);
        return outcomes.report(rows);
    }
}
