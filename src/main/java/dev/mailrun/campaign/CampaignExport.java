package dev.mailrun.campaign;

import dev.mailrun.campaign.model.Attachment;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.model.Variant;
import dev.mailrun.campaign.store.AbTable;
import dev.mailrun.campaign.store.AttachmentTable;
import dev.mailrun.campaign.store.CampaignTable;
import dev.mailrun.campaign.store.ContentPinTable;
import dev.mailrun.campaign.store.recipient.RecipientExport;
import dev.mailrun.db.Transactions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * Every recipient of a campaign with its outcome, as CSV ({@link #COLUMNS}; times in ISO-8601 UTC,
 * empty when unknown; {@code attachments}: the names of the files its message carries, separated by
 * {@code "; "}, and {@code attachment_sha256}: the checksum of its own file; {@code variant}: the name of its A/B
 * variant, empty without one; {@code content_version}: the stored template version its message was sent from
 * ({@code name@version}, {@link ContentHistory}), empty when not sent; a tracked campaign adds {@link EngagementColumns#COLUMNS}, each recipient's first and
 * last human open and click): for reports and for moving results into another system. Read in id order,
 * in pages of {@link #PAGE}, all from one snapshot: memory does not grow with the campaign, and a
 * campaign still sending is exported as it stood when the export began.
 */
public final class CampaignExport {

    public static final List<String> COLUMNS = List.of("id", "email", "status", "attempts", "last_code", "last_error",
            "sent_at", "message_id", "bounce_kind", "bounced_at", "attachments", "attachment_sha256", "variant",
            "content_version");
    /** The columns a tracked campaign's export adds after {@link #COLUMNS}. */
    public static final List<String> TRACKING_COLUMNS = EngagementColumns.COLUMNS;
    static final int PAGE = 1_000;

    private final DataSource dataSource;
    private final CampaignTable campaigns = new CampaignTable();
    private final RecipientExport recipients = new RecipientExport();
    private final AttachmentTable files = new AttachmentTable();
    private final AbTable abTests = new AbTable();
    private final ContentPinTable pins = new ContentPinTable();

    public CampaignExport(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Takes the export: its column names once, then one row per recipient in id order (null where a value is absent). */
    public interface Table {
        void columns(List<String> names) throws IOException;

        void row(List<Object> values) throws IOException;
    }

    /**
     * Writes the header and every recipient as CSV (absent values blank); returns how many. The writer stays open.
     *
     * @throws CampaignException when there is no such campaign (nothing is written then)
     */
    public long write(long campaignId, Writer out) throws SQLException, IOException {
        CSVPrinter csv = new CSVPrinter(out, CSVFormat.RFC4180);
        long n = rows(campaignId, new Table() {
            @Override
            public void columns(List<String> names) throws IOException {
                csv.printRecord(names);
            }

            @Override
            public void row(List<Object> values) throws IOException {
                csv.printRecord(values.stream().map(v -> v == null ? "" : v).toList());
            }
        });
        csv.flush();
        return n;
    }

    /**
     * Hands the columns and then every recipient's row to {@code table}, in pages from one snapshot; returns how many.
     * The CSV, the API's NDJSON and its one-recipient read all take their values from here, so they cannot differ.
     *
     * @throws CampaignException when there is no such campaign (nothing is handed over then)
     */
    public long rows(long campaignId, Table table) throws SQLException, IOException {
        try {
            return Transactions.readSnapshot(dataSource, c -> {
                if (campaigns.find(c, campaignId).isEmpty()) {
                    throw new CampaignException("no campaign with id " + campaignId);
                }
                Shape shape = shape(campaignId);
                unchecked(() -> table.columns(shape.columns()));
                Optional<Long> first = recipients.firstId(c, campaignId);
                long written = 0;
                long from = first.orElse(0L);
                List<RecipientExport.ExportedRecipient> page = List.of();
                do {
                    page = first.isEmpty() ? List.of() : recipients.exportPage(c, campaignId, from, PAGE);
                    for (RecipientExport.ExportedRecipient r : page) {
                        List<Object> values = shape.values(r);
                        unchecked(() -> table.row(values));
                        from = r.id() + 1;
                    }
                    written += page.size();
                } while (page.size() == PAGE);
                return written;
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /**
     * One recipient of the campaign by address (case ignored), with the export's columns and values; empty when the
     * campaign has no such recipient.
     *
     * @throws CampaignException when there is no such campaign
     */
    public Optional<Map<String, Object>> one(long campaignId, EmailAddress address) throws SQLException {
        Optional<RecipientExport.ExportedRecipient> found;
        try (Connection c = dataSource.getConnection()) {
            if (campaigns.find(c, campaignId).isEmpty()) {
                throw new CampaignException("no campaign with id " + campaignId);
            }
            found = recipients.byEmail(c, campaignId, address.toString());
        }
        if (found.isEmpty()) {
            return Optional.empty();
        }
        Shape shape = shape(campaignId);
        List<Object> values = shape.values(found.get());
        Map<String, Object> row = new LinkedHashMap<>();
        for (int i = 0; i < values.size(); i++) {
            row.put(shape.columns().get(i), values.get(i));
        }
        return Optional.of(row);
    }

    /** What a campaign's rows carry beside the recipient's own columns: its files, variants and engagement. */
    private Shape shape(long campaignId) throws SQLException {
        ContentHistory content = new ContentHistory(Transactions.readSnapshot(dataSource, c -> pins.changes(c, campaignId)));
        return new Shape(campaignFileNames(campaignId), variantNames(campaignId), content,
                EngagementColumns.of(dataSource, campaignId));
    }

    private record Shape(String campaignFiles, List<String> variants, ContentHistory content,
                         Optional<EngagementColumns> engagement) {

        List<String> columns() {
            List<String> header = new ArrayList<>(COLUMNS);
            engagement.ifPresent(e -> header.addAll(EngagementColumns.COLUMNS));
            return header;
        }

        List<Object> values(RecipientExport.ExportedRecipient r) throws SQLException {
            String variant = r.variant() == null || r.variant() >= variants.size() ? null : variants.get(r.variant());
            String version = r.sentAt() == null ? null : content.at(Optional.ofNullable(variant), r.sentAt()).orElse(null);
            List<Object> row = new ArrayList<>(Arrays.asList(r.id(), r.email(), r.status().dbValue(), r.attempts(), r.lastCode(),
                    r.lastError(), r.sentAt(), r.messageId(), r.bounceKind(), r.bouncedAt(),
                    attachments(campaignFiles, r.attachment()), r.attachmentSha256(), variant, version));
            if (engagement.isPresent()) {
                row.addAll(engagement.get().values(r.id()));
            }
            return row;
        }
    }

    private interface IoAction {
        void run() throws IOException;
    }

    private static void unchecked(IoAction action) {
        try {
            action.run();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The names of the campaign's own files, separated by "; " (they never change after create). */
    private String campaignFileNames(long campaignId) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return String.join("; ", files.list(c, campaignId).stream().map(Attachment.Summary::filename).toList());
        }
    }

    /** The names of the campaign's A/B variants by position (what recipient.variant holds); empty without a test. */
    private List<String> variantNames(long campaignId) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return abTests.find(c, campaignId, false).map(ab -> ab.test().variants().stream().map(Variant::name).toList())
                    .orElse(List.of());
        }
    }

    /** The names of the files the recipient's message carries: the campaign's, then its own. */
    private static String attachments(String campaignFiles, String own) {
        if (own == null) {
            return campaignFiles.isEmpty() ? null : campaignFiles;
        }
        String name = own.substring(Math.max(own.lastIndexOf('/'), own.lastIndexOf('\\')) + 1);
        return campaignFiles.isEmpty() ? name : campaignFiles + "; " + name;
    }
}
