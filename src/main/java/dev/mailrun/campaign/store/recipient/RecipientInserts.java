package dev.mailrun.campaign.store.recipient;

import dev.mailrun.db.Sql;
import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The import's statements: multi-row inserts of new recipients, and which addresses a campaign
 * already has.
 */
public final class RecipientInserts {

    /** One row of an import: the normalised address, its merge fields as JSON, and its line in the file. */
    public record NewRecipient(String email, String name, String fieldsJson, String attachment, String attachmentSha256,
                               long line) {}

    /**
     * Multi-row {@code INSERT IGNORE} statements for one import's transaction, every value a bound
     * parameter. One statement is prepared per row count, so the full chunks of a batch share it:
     * preparing a statement of 7,000 parameters costs the server a parse and a reply per parameter
     * each time. Only a few are kept: chunks cut short by their size in bytes have counts of their
     * own, and each prepared statement holds memory on the server until it is closed. {@code variant}: the
     * A/B variant the rows are given, the winner of the campaign's test once it is picked; empty: none.
     */
    public Inserts inserts(Connection c, long campaignId, String importId, Instant now, Optional<Integer> variant) {
        return new Inserts(c, campaignId, importId, SqlTime.literal(now), variant.orElse(null));
    }

    /**
     * Prepared insert statements of one transaction; close them with the transaction, before its
     * commit: closing adds the rows they inserted to the campaign's status counts, one upsert for the
     * whole batch as its last statement, so the count row a sending run also writes is held briefly.
     */
    public static final class Inserts implements AutoCloseable {
        private final StatusCountTable counts = new StatusCountTable();
        private long inserted;
        private final Connection c;
        private final long campaignId;
        private final String importId;
        private final String stamp;
        private final Integer variant;
        private static final int KEPT = 4;
        private final Map<Integer, PreparedStatement> prepared = new HashMap<>();

        private Inserts(Connection c, long campaignId, String importId, String stamp, Integer variant) {
            this.c = c;
            this.variant = variant;
            this.campaignId = campaignId;
            this.importId = importId;
            this.stamp = stamp;
        }

        /**
         * Inserts the rows as pending recipients; returns how many went in. An address the campaign
         * already has, in any letter case, does not ({@code uq_recipient_email_key}).
         */
        public int insert(List<NewRecipient> rows) throws SQLException {
            if (rows.isEmpty()) {
                return 0;
            }
            PreparedStatement ps = prepared.get(rows.size());
            if (ps == null) {
                ps = serverPrepared(c, insertSql(rows.size()));
                if (prepared.size() >= KEPT) {
                    try (PreparedStatement once = ps) {
                        return execute(once, rows);
                    }
                }
                prepared.put(rows.size(), ps);
            }
            return execute(ps, rows);
        }

        private int execute(PreparedStatement ps, List<NewRecipient> rows) throws SQLException {
            int p = 1;
            for (NewRecipient r : rows) {
                ps.setLong(p++, campaignId);
                ps.setString(p++, r.email());
                ps.setString(p++, r.name());
                ps.setString(p++, r.fieldsJson());
                ps.setString(p++, r.attachment());
                ps.setString(p++, r.attachmentSha256());
                ps.setString(p++, importId);
                ps.setLong(p++, r.line());
                ps.setString(p++, stamp);
                ps.setObject(p++, variant, java.sql.Types.TINYINT);
            }
            int n = ps.executeUpdate();
            inserted += n;
            return n;
        }

        @Override
        public void close() throws SQLException {
            SQLException first = null;
            try {
                counts.apply(c, campaignId, new StatusCountTable.Delta().add("pending", "", inserted));
                inserted = 0;
            } catch (SQLException e) {
                first = e;
            }
            for (PreparedStatement ps : prepared.values()) {
                try {
                    ps.close();
                } catch (SQLException e) {
                    first = first == null ? e : first;
                }
            }
            if (first != null) {
                throw first;
            }
        }

        private static String insertSql(int rowCount) {
            StringBuilder sql = new StringBuilder(160 + rowCount * 32).append(
                    "INSERT IGNORE INTO recipient (campaign_id, email, name, fields, attachment, attachment_sha256, status, import_id,"
                    + " import_line, updated_at, variant) VALUES ");
            for (int i = 0; i < rowCount; i++) {
                sql.append(i == 0 ? "" : ", ").append("(?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?)");
            }
            return sql.toString();
        }

        /**
         * A server-side prepared statement when the driver offers one: thousands of values then
         * travel in the binary protocol instead of being escaped into SQL text by the client, which
         * was most of the import's CPU time. Any other driver gets an ordinary prepared statement.
         */
        private static PreparedStatement serverPrepared(Connection c, String sql) throws SQLException {
            if (c.isWrapperFor(com.mysql.cj.jdbc.JdbcConnection.class)) {
                return c.unwrap(com.mysql.cj.jdbc.JdbcConnection.class).serverPrepareStatement(sql);
            }
            return c.prepareStatement(sql);
        }
    }

    /**
     * Which of these addresses are already recipients of the campaign, found by suppression key
     * (the whole address lower-cased, as {@code uq_recipient_email_key} compares them): key → its
     * line in import {@code importId}, or -1 when it came from another import.
     */
    public Map<String, Long> importedLines(Connection c, long campaignId, String importId, List<String> suppressionKeys)
            throws SQLException {
        Map<String, Long> found = new HashMap<>();
        if (suppressionKeys.isEmpty()) {
            return found;
        }
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT email_key, import_id, import_line FROM recipient WHERE campaign_id = ? AND legacy_duplicate = 0 AND email_key IN ("
                        + Sql.placeholders(suppressionKeys.size()) + ")")) {
            ps.setLong(1, campaignId);
            int i = 2;
            for (String key : suppressionKeys) {
                ps.setString(i++, key);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    boolean ours = importId.equals(rs.getString(2));
                    found.put(rs.getString(1), ours ? rs.getLong(3) : -1L);
                }
            }
        }
        return found;
    }
}
