package dev.mailrun.campaign.importing;

import dev.mailrun.campaign.store.AbTable;
import dev.mailrun.campaign.store.CampaignTable;
import dev.mailrun.campaign.store.recipient.RecipientInserts;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.db.Transactions;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * Writes one batch of rows in one transaction: the suppression check, then multi-row
 * {@code INSERT IGNORE} statements, then — only where a statement inserted fewer rows than it
 * carried — one SELECT to learn why. Its outcomes are reported once the transaction committed, so a
 * batch that fails reports nothing. Used by both writer threads at once; it holds no state of its own.
 */
final class BatchWriter {

    private static final int ROWS_PER_INSERT = 1_000;

    /** Which import a writer serves: the campaign, and the id stamped on every row it inserts. */
    record Target(long campaignId, String importId) {}

    /** A rejected row; {@code firstLine} is the line of the first occurrence of a duplicate in the file, else 0. */
    private record RowReject(Row row, RecipientRejectReason reason, String detail, long firstLine) {
        RowReject(Row row, RecipientRejectReason reason, String detail) {
            this(row, reason, detail, 0);
        }
    }

    /** A batch split into rows inserted and rows refused after looking at the database. */
    private record Sorted(List<Row> inserted, List<RowReject> rejected) {}

    private final DataSource dataSource;
    private final SuppressionTable suppressions = new SuppressionTable();
    private final RecipientInserts recipients = new RecipientInserts();
    private final CampaignTable campaigns = new CampaignTable();
    private final AbTable abTests = new AbTable();
    private final Target target;
    private final Clock clock;
    private final Outcomes outcomes;
    private final long statementBytes;

    /** @param statementBytes the most row data one insert statement carries ({@link StatementSize}) */
    BatchWriter(DataSource dataSource, Target target, Clock clock, Outcomes outcomes, long statementBytes) {
        this.dataSource = dataSource;
        this.target = target;
        this.clock = clock;
        this.outcomes = outcomes;
        this.statementBytes = statementBytes;
    }

    void write(List<Row> rows) throws SQLException, IOException {
        if (rows.isEmpty()) {
            return;
        }
        Instant now = clock.instant();
        // How many rows the commit under way would put in; -1 until the work before it is done.
        AtomicInteger committing = new AtomicInteger(-1);
        Sorted sorted;
        try {
            sorted = Transactions.inTransaction(dataSource, c -> {
                committing.set(-1);
                Sorted work = work(c, rows, now);
                committing.set(work.inserted().size());
                return work;
            });
        } catch (SQLException e) {
            if (committing.get() >= 0) {
                // The commit was sent but not confirmed (the connection was lost): its rows may be in.
                outcomes.unconfirmed(committing.get());
            }
            throw e;
        }
        outcomes.imported(sorted.inserted().size());
        sorted.inserted().forEach(r -> r.firstLine().set(r.line()));
        sorted.rejected().forEach(r -> r.row().firstLine().set(r.firstLine() > 0 ? r.firstLine() : r.row().line()));
        for (RowReject r : sorted.rejected()) {
            outcomes.reject(r.row().line(), r.row().rawEmail(), r.reason(), r.detail());
        }
    }

    /** The batch's statements, inside its transaction; run again from the start if the database retries it. */
    private Sorted work(Connection c, List<Row> rows, Instant now) throws SQLException {
        // Checked again in every batch: the campaign may have been cancelled or completed since the import began.
        CampaignCheck.requireOpen(target.campaignId(), campaigns.lockShared(c, target.campaignId())
                .orElseThrow(() -> new ImportRefusedException("campaign " + target.campaignId() + " does not exist")));
        Set<String> keys = new HashSet<>();
        rows.forEach(r -> keys.add(r.key()));
        Set<String> suppressed = suppressions.suppressedAmong(c, keys);
        Sorted result = new Sorted(new ArrayList<>(rows.size()), new ArrayList<>());
        List<Row> candidates = new ArrayList<>(rows.size());
        for (Row r : rows) {
            if (suppressed.contains(r.key())) {
                result.rejected().add(new RowReject(r, RecipientRejectReason.SUPPRESSED, "address is on the suppression list"));
            } else {
                candidates.add(r);
            }
        }
        // Read under a shared lock until the batch commits: a pick of the campaign's A/B winner waits for these rows
        // and then gives them the winner with the rest, or has been made and they are given it here.
        insert(c, candidates, now, abTests.winnerLockShared(c, target.campaignId()), result);
        return result;
    }

    /**
     * Statements of up to {@link #ROWS_PER_INSERT} rows and {@code statementBytes} of row data (a
     * row larger than that was rejected before it got here). The unique key on (campaign, address
     * lower-cased) decides duplicates; a row that neither went in nor existed is reported as
     * refused, so nothing is dropped silently.
     */
    private void insert(Connection c, List<Row> rows, Instant now, Optional<Integer> variant, Sorted result) throws SQLException {
        try (RecipientInserts.Inserts inserts = recipients.inserts(c, target.campaignId(), target.importId(), now, variant)) {
            for (int from = 0, to; from < rows.size(); from = to) {
                to = chunkEnd(rows, from);
                List<Row> chunk = rows.subList(from, to);
                int inserted = inserts.insert(chunk.stream()
                        .map(r -> new RecipientInserts.NewRecipient(r.email(), r.name(), r.fieldsJson(), r.attachment(),
                                r.attachmentSha256(), r.line()))
                        .toList());
                sortInserted(c, chunk, inserted, result);
            }
        }
    }

    /** Where the statement starting at row {@code from} ends: at the row count or the byte budget, whichever comes first. */
    private int chunkEnd(List<Row> rows, int from) {
        int to = from + 1;
        long bytes = rows.get(from).storedBytes();
        while (to < rows.size() && to - from < ROWS_PER_INSERT && bytes + rows.get(to).storedBytes() <= statementBytes) {
            bytes += rows.get(to).storedBytes();
            to++;
        }
        return to;
    }

    /** Rows a statement carried: inserted, or why not (an earlier line of this file, or an earlier import). */
    private void sortInserted(Connection c, List<Row> chunk, int inserted, Sorted result) throws SQLException {
        if (inserted == chunk.size()) {
            result.inserted().addAll(chunk);
            return;
        }
        Map<String, Long> existing = recipients.importedLines(c, target.campaignId(), target.importId(),
                chunk.stream().map(Row::key).toList());
        for (Row r : chunk) {
            Long line = existing.get(r.key());
            if (line != null && line == r.line()) {
                result.inserted().add(r);
            } else if (line == null) {
                result.rejected().add(new RowReject(r, RecipientRejectReason.INVALID_FIELD, "refused by the database"));
            } else if (line >= 0) {
                result.rejected().add(new RowReject(r, RecipientRejectReason.DUPLICATE_IN_FILE, "first at line " + line, line));
            } else {
                result.rejected().add(new RowReject(r, RecipientRejectReason.ALREADY_IN_CAMPAIGN,
                        "already a recipient of campaign " + target.campaignId()));
            }
        }
    }
}
