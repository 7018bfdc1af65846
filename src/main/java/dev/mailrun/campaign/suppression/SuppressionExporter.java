package dev.mailrun.campaign.suppression;

import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.db.Transactions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * Writes the suppression list as CSV ({@link #COLUMNS}; created_at in ISO-8601 UTC), in address order,
 * read in pages of {@link #PAGE} rows: memory does not grow with the list. Every page is read in one
 * snapshot, so a suppression added or removed while the export runs is either in it or not, never
 * half. The file imports back with {@code suppressions import} (its {@code email} column).
 */
public final class SuppressionExporter {

    static final List<String> COLUMNS = List.of("email", "reason", "source", "created_at");
    static final int PAGE = 1_000;

    private final DataSource dataSource;
    private final SuppressionTable table = new SuppressionTable();

    public SuppressionExporter(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Writes the header and every matching suppression; returns how many rows were written. The writer stays open. */
    public long export(SuppressionTable.Filter filter, Writer out) throws SQLException, IOException {
        CSVPrinter csv = new CSVPrinter(out, CSVFormat.RFC4180);
        csv.printRecord(COLUMNS);
        try {
            long written = Transactions.readSnapshot(dataSource, c -> {
                long n = 0;
                String after = "";
                List<SuppressionTable.Stored> page;
                do {
                    page = table.page(c, filter, after, PAGE);
                    for (SuppressionTable.Stored s : page) {
                        print(csv, s);
                    }
                    n += page.size();
                    after = page.isEmpty() ? after : page.get(page.size() - 1).address();
                } while (page.size() == PAGE);
                return n;
            });
            csv.flush();
            return written;
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static void print(CSVPrinter csv, SuppressionTable.Stored s) {
        try {
            csv.printRecord(s.address(), s.reason(), s.source(), s.createdAt());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
