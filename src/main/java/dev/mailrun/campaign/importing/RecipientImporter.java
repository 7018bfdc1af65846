package dev.mailrun.campaign.importing;

import dev.mailrun.campaign.attach.AttachmentLimits;
import dev.mailrun.campaign.attach.RecipientFiles;
import dev.mailrun.campaign.content.PinnedTemplates;
import dev.mailrun.campaign.model.Attachment;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.store.AttachmentTable;
import dev.mailrun.csv.RejectLog;
import dev.mailrun.mail.template.CompiledTemplate;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
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
    private final PinnedTemplates templates;
    private final ImportListener listener;
    private final RecipientFiles files;

    /** The column that names each recipient's own file unless the import names another. */
    public static final String ATTACHMENT_COLUMN = "attachment";

    public RecipientImporter(DataSource dataSource, PinnedTemplates templates, AddressFilter filter, Clock clock,
                             ImportSettings settings) {
        this(dataSource, templates, filter, clock, settings, ImportListener.NONE, RecipientFiles.none(AttachmentLimits.DEFAULTS));
    }

    private RecipientImporter(DataSource dataSource, PinnedTemplates templates, AddressFilter filter, Clock clock,
                              ImportSettings settings, ImportListener listener, RecipientFiles files) {
        this.dataSource = dataSource;
        this.templates = templates;
        this.campaignCheck = new CampaignCheck(dataSource, templates);
        this.filter = filter;
        this.clock = clock;
        this.settings = settings;
        this.listener = listener;
        this.files = files;
    }

    /** The same importer, telling {@code listener} about every row accepted or rejected. */
    public RecipientImporter withListener(ImportListener listener) {
        return new RecipientImporter(dataSource, templates, filter, clock, settings, listener, files);
    }

    /** The same importer, taking the recipients' own files from {@code files} (content.recipient-files). */
    public RecipientImporter withRecipientFiles(RecipientFiles files) {
        return new RecipientImporter(dataSource, templates, filter, clock, settings, listener, files);
    }

    /**
     * @param progress called with the number of rows read so far after each batch
     * @throws ImportRefusedException when the campaign cannot take the import, or the file as a whole
     *                                is unusable ({@link ImportFileException}); nothing was imported then
     * @throws ImportStoppedException  when the import stopped part-way; its report counts what was committed
     */
    public RecipientImportReport importCsv(long campaignId, Path file, Optional<Path> rejectsFile, LongConsumer progress)
            throws IOException, SQLException {
        return importCsv(campaignId, file, rejectsFile, Optional.empty(), progress);
    }

    /**
     * @param attachmentColumn the column naming each recipient's own file ({@code --attachment-column}); empty:
     *                         {@value #ATTACHMENT_COLUMN} when the file has one
     * @throws InvalidFields naming the field {@code attachmentColumn} when the file has no such column
     */
    public RecipientImportReport importCsv(long campaignId, Path file, Optional<Path> rejectsFile,
                                           Optional<String> attachmentColumn, LongConsumer progress)
            throws IOException, SQLException {
        CompiledTemplate template = campaignCheck.openCampaign(campaignId);
        CsvFile csv = CsvFile.check(file, attachmentColumn.orElse(ATTACHMENT_COLUMN));
        RowFiles rowFiles = rowFiles(campaignId, file, csv.header(), attachmentColumn);
        CampaignCheck.requireFields(file, template, csv.header());
        StatementSize statement = StatementSize.of(dataSource);
        RowChecks checks = new RowChecks(csv.header(), filter, template.subjectFields(),
                new RowSize(csv.header().columns(), settings, statement), rowFiles);
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

    /** How this import checks the files its rows name; refuses the file when it names files nothing can take. */
    private RowFiles rowFiles(long campaignId, Path file, CsvHeader header, Optional<String> asked) throws SQLException {
        if (asked.isPresent() && header.attachmentColumn().isEmpty()) {
            throw InvalidFields.about("attachmentColumn", "'" + asked.get() + "'", "no such column in the header row of " + file);
        }
        if (header.attachmentColumn().isPresent() && !files.configured()) {
            throw new ImportFileException(file, "column '" + header.attachmentColumn().get().strip()
                    + "' names a file per recipient, but content.recipient-files is not set");
        }
        long campaignBytes = 0;
        try (Connection c = dataSource.getConnection()) {
            for (Attachment.Summary a : new AttachmentTable().list(c, campaignId)) {
                campaignBytes += a.size();
            }
        }
        return new RowFiles(files, campaignBytes);
    }
}
