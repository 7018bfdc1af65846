package dev.mailrun.campaign.store;

import dev.mailrun.db.Sql;
import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The api_audit table: every write through the API, allowed or refused. Insert-only. */
public final class ApiAuditTable {

    /** One entry: who, what, on what, when, and the HTTP status it ended with. */
    public record Entry(Instant at, String tokenName, String action, String target, int status, Optional<String> detail) {}

    public void insert(Connection c, Entry e) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO api_audit (at, token_name, action, target, status, detail) VALUES (?, ?, ?, ?, ?, ?)")) {
            SqlTime.set(ps, 1, e.at());
            ps.setString(2, Sql.truncate(e.tokenName(), 64));
            ps.setString(3, Sql.truncate(e.action(), 64));
            ps.setString(4, Sql.truncate(e.target(), 255));
            ps.setInt(5, e.status());
            ps.setString(6, e.detail().map(d -> Sql.truncate(d, 1000)).orElse(null));
            ps.executeUpdate();
        }
    }

    /** The newest entries first, at most {@code limit}, none before {@code since}. */
    public List<Entry> newest(Connection c, Instant since, int limit) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT at, token_name, action, target, status, detail FROM api_audit
                WHERE at >= ? ORDER BY at DESC, id DESC LIMIT ?""")) {
            SqlTime.set(ps, 1, since);
            ps.setInt(2, limit);
            try (ResultSet rs = ps.executeQuery()) {
                List<Entry> rows = new ArrayList<>();
                while (rs.next()) {
                    rows.add(new Entry(SqlTime.get(rs, 1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getInt(5),
                            Optional.ofNullable(rs.getString(6))));
                }
                return rows;
            }
        }
    }

    /**
     * An erasure (docs/ERASURE.md): entries naming the address (letter case ignored) keep who, what and
     * when, their target and detail replaced by {@code (erased)}. Reads the whole table: erasures are rare.
     */
    public void erase(Connection c, String emailKey) throws SQLException {
        String like = "%" + emailKey.replace("!", "!!").replace("%", "!%").replace("_", "!_") + "%";
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE api_audit SET target = '(erased)', detail = NULL
                WHERE LOWER(target) LIKE ? ESCAPE '!' OR LOWER(detail) LIKE ? ESCAPE '!'""")) {
            ps.setString(1, like);
            ps.setString(2, like);
            ps.executeUpdate();
        }
    }
}
