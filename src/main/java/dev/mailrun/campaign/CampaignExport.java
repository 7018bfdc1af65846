package dev.mailrun.campaign;

import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.store.CampaignTable;
import dev.mailrun.campaign.store.recipient.RecipientExport;
import dev.mailrun.db.Transactions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * Every recipient of a campaign with its outcome, as CSV ({@link #COLUMNS}; times in ISO-8601 UTC,
 * empty when unknown): for reports and for moving results into another system. Read in id order,
 * in pages of {@link #PAGE}, all from one snapshot: memory does not grow with the campaign, and a
 * campaign still sending is exported as it stood when the export began.
 */
public final class CampaignExport {

    public static final List<String> COLUMNS = List.of("id", "email", "status", "attempts", "last_code", "last_error",
            "sent_at", "message_id", "bounce_kind", "bounced_at");
    static final int PAGE = 1_000;

    private final DataSource dataSource;
    private final CampaignTable campaigns = new CampaignTable();
    private final RecipientExport recipients = new RecipientExport();

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
        boolean[] headed = {false};
        long n = each(campaignId, r -> {
            if (!headed[0]) {
                csv.printRecord(COLUMNS);
                headed[0] = true;
            }
            csv.printRecord(List.of(r.id(), r.email(), r.status().dbValue(), r.attempts(), blank(r.lastCode()),
                    blank(r.lastError()), blank(r.sentAt()), blank(r.messageId()), blank(r.bounceKind()),
                    blank(r.bouncedAt())));
        });
        if (!headed[0]) {
            csv.printRecord(COLUMNS);
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

    private static Object blank(Object value) {
        return value == null ? "" : value;
    }
}
