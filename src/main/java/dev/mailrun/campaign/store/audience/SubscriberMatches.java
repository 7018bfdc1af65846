package dev.mailrun.campaign.store.audience;

import dev.mailrun.campaign.model.SubscriberStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reads of the subscriber table through a segment's WHERE fragment ({@link SubscriberFilterSql}): its count and first rows. */
public final class SubscriberMatches {

    /** One subscriber a filter matches. */
    public record Match(long id, String email, Optional<String> name, SubscriberStatus status) {}

    /** How many subscribers match, counted now. */
    public long count(Connection c, SubscriberFilterSql.Where where) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM subscriber s WHERE " + where.sql())) {
            where.bind(ps, 1);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** The first {@code limit} subscribers that match, in id order. */
    public List<Match> first(Connection c, SubscriberFilterSql.Where where, int limit) throws SQLException {
        List<Match> matches = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT s.id, s.email, s.name, s.status FROM subscriber s WHERE " + where.sql() + " ORDER BY s.id LIMIT ?")) {
            int next = where.bind(ps, 1);
            ps.setInt(next, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    matches.add(new Match(rs.getLong(1), rs.getString(2), Optional.ofNullable(rs.getString(3)),
                            SubscriberStatus.fromDb(rs.getString(4))));
                }
            }
        }
        return matches;
    }
}
