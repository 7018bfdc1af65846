package dev.mailrun.campaign;

import dev.mailrun.campaign.model.Attachment;
import dev.mailrun.campaign.model.Variant;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.store.AbTable;
import dev.mailrun.campaign.store.AttachmentTable;
import dev.mailrun.campaign.store.CampaignTable;
import dev.mailrun.campaign.store.recipient.RecipientExport;
import dev.mailrun.db.Transactions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * Every recipient of a campaign with its outcome, as CSV ({@link #COLUMNS}; times in ISO-8601 UTC,
 * empty when unknown; {@code attachments}: the names of the files its message carries, separated by
 * {@code "; "}, and {@code attachment_sha256}: the checksum of its own file; {@code variant}: the name of its A/B
 * variant, empty without one; a tracked campaign adds {@link EngagementColumns#COLUMNS}, each recipient's first and
 * last human open and click): for reports and for moving results into another system. Read in id order,
 * in pages of {@link #PAGE}, all from one snapshot: memory does not grow with the campaign, and a
 * campaign still sending is exported as it stood when the export began.
 */
public final class CampaignExport {

    public static final List<String> COLUMNS = List.of("id", "email", "status", "attempts", "last_code", "last_error",
            "sent_at", "message_id", "bounce_kind", "bounced_at", "attachments", "attachment_sha256", "variant");
    static final int PAGE = 1_000;

    private final DataSource dataSource;
    private final CampaignTable campaigns = new CampaignTable();
    private final RecipientExport recipients = new RecipientExport();
    private final AttachmentTable files = new AttachmentTable();
    private final AbTable abTests = new AbTable();

    public CampaignExport(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Takes the exported recipients one at a time, in id order. */
    @FunctionalInterface
    public interface Rows {
        void accept(RecipientExport.ExportedRecipient row) throws IOException;
    }

    /**
     * Writes the header and every recipient; returns how many. The writer stays open.
     *
     * @throws CampaignException when there is no such campaign (nothing is written then)
     */
    public long write(long campaignId, Writer out) throws SQLException, IOException {
        CSVPrinter csv = new CSVPrinter(out, CSVFormat.RFC4180);
        String campaignFiles = campaignFileNames(campaignId);
        Optional<EngagementColumns> engagement = EngagementColumns.of(dataSource, campaignId);
        List<String> header = new ArrayList<>(COLUMNS);
        engagement.ifPresent(e -> header.addAll(EngagementColumns.COLUMNS));
        List<String> variants = variantNames(campaignId);
        boolean[] headed = {false};
        long n = each(campaignId, r -> {
            if (!headed[0]) {
                csv.printRecord(header);
                headed[0] = true;
            }
            List<Object> row = new ArrayList<>(List.of(r.id(), r.email(), r.status().dbValue(), r.attempts(), blank(r.lastCode()),
                    blank(r.lastError()), blank(r.sentAt()), blank(r.messageId()), blank(r.bounceKind()),
                    blank(r.bouncedAt()), attachments(campaignFiles, r.attachment()), blank(r.attachmentSha256()),
                    r.variant() == null || r.variant() >= variants.size() ? "" : variants.get(r.variant())));
            if (engagement.isPresent()) {
                try {
                    row.addAll(engagement.get().values(r.id()));
                } catch (SQLException e) {
                    throw new IOException("reading the engagement of recipient " + r.id() + ": " + e.getMessage(), e);
                }
            }
            csv.printRecord(row);
        });
        if (!headed[0]) {
            csv.printRecord(header);
        }
        csv.flush();
        return n;
    }

    /**
     * Hands every recipient to {@code rows}, in pages from one snapshot (as {@link #write}); returns how many.
     *
     * @throws CampaignException when there is no such campaign (nothing is handed over then)
     */
    public long each(long campaignId, Rows rows) throws SQLException, IOException {
        try {
            return Transactions.readSnapshot(dataSource, c -> {
                if (campaigns.find(c, campaignId).isEmpty()) {
                    throw new CampaignException("no campaign with id " + campaignId);
                }
                Optional<Long> first = recipients.firstId(c, campaignId);
                long written = 0;
                long from = first.orElse(0L);
                List<RecipientExport.ExportedRecipient> page = List.of();
                do {
                    page = first.isEmpty() ? List.of() : recipients.exportPage(c, campaignId, from, PAGE);
                    for (RecipientExport.ExportedRecipient r : page) {
                        try {
                            rows.accept(r);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
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
            return campaignFiles;
        }
        String name = own.substring(Math.max(own.lastIndexOf('/'), own.lastIndexOf('\\')) + 1);
        return campaignFiles.isEmpty() ? name : campaignFiles + "; " + name;
    }

    private static Object blank(Object value) {
        return value == null ? "" : value;
    }
}
