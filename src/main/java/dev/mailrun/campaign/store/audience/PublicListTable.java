package dev.mailrun.campaign.store.audience;

import dev.mailrun.campaign.model.ListOptIn;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The subscriber_list rows the sign-up forms read: public lists only, with their page language
 * ({@code language}, V43). A private list is never found here, so no form can name one.
 */
public final class PublicListTable {

    private static final String COLUMNS = "id, name, description, optin, language";

    /** A public list as a form shows it. */
    public record PublicList(long id, String name, Optional<String> description, ListOptIn optIn, Optional<String> language) {}

    /** Every public list, by name. */
    public List<PublicList> all(Connection c) throws SQLException {
        List<PublicList> lists = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS
                + " FROM subscriber_list WHERE visibility = 'public' ORDER BY name, id");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                lists.add(row(rs));
            }
        }
        return lists;
    }

    /** The public list {@code id}, read under a shared lock (held against a delete until the commit). */
    public Optional<PublicList> lockShared(Connection c, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS
                + " FROM subscriber_list WHERE id = ? AND visibility = 'public' LOCK IN SHARE MODE")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(row(rs)) : Optional.empty();
            }
        }
    }

    /** The list {@code id}, public or not, by id: a confirmation names the lists its consent rows hold. */
    public Optional<PublicList> any(Connection c, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM subscriber_list WHERE id = ?")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(row(rs)) : Optional.empty();
            }
        }
    }

    /** Sets the language of the list's pages (sign-up, unsubscribe) and confirmation message; empty: the configured default. */
    public boolean setLanguage(Connection c, String name, Optional<String> language) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE subscriber_list SET language = ? WHERE name = ?")) {
            ps.setString(1, language.orElse(null));
            ps.setString(2, name);
            return ps.executeUpdate() == 1;
        }
    }

    private static PublicList row(ResultSet rs) throws SQLException {
        return new PublicList(rs.getLong(1), rs.getString(2), Optional.ofNullable(rs.getString(3)),
                ListOptIn.fromDb(rs.getString(4)), Optional.ofNullable(rs.getString(5)));
    }
}
