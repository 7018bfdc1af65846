package dev.mailrun.campaign.store.audience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The audience tables of V38 on the real database: one subscriber per address whatever its case, and what deletes take with them. */
class AudienceSchemaTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final String NOW = "'2026-11-24 10:00:00.000'";

    @BeforeEach
    void empty() throws SQLException {
        sql("DELETE FROM subscriber");
        sql("DELETE FROM subscriber_list");
    }

    @Test
    void two_addresses_differing_only_in_case_are_one_subscriber() throws SQLException {
        long id = subscriber("Ann@Example.com");
        assertThat(one("SELECT email_key FROM subscriber WHERE id = " + id)).isEqualTo("ann@example.com");
        assertThatThrownBy(() -> subscriber("ann@example.com")).isInstanceOf(SQLException.class).hasMessageContaining("uq_subscriber_email_key");
    }

    @Test
    void a_status_outside_its_values_and_attributes_that_are_not_an_object_are_refused() {
        assertThatThrownBy(() -> sql("INSERT INTO subscriber (email, status, created_at, updated_at) VALUES ('x@example.com', 'gone', "
                + NOW + ", " + NOW + ")")).isInstanceOf(SQLException.class);
        assertThatThrownBy(() -> sql("INSERT INTO subscriber (email, attribs, status, created_at, updated_at) VALUES ('x@example.com', '[1]', "
                + "'enabled', " + NOW + ", " + NOW + ")")).isInstanceOf(SQLException.class);
    }

    @Test
    void deleting_a_subscriber_deletes_its_subscriptions_and_history() throws SQLException {
        long list = list("news");
        long ann = subscriber("ann@example.com");
        subscribe(ann, list);
        sql("INSERT INTO subscriber_event (subscriber_id, at, kind, list_id) VALUES (" + ann + ", " + NOW + ", 'subscribed', " + list + ")");
        sql("DELETE FROM subscriber WHERE id = " + ann);
        assertThat(one("SELECT COUNT(*) FROM subscription")).isEqualTo("0");
        assertThat(one("SELECT COUNT(*) FROM subscriber_event")).isEqualTo("0");
    }

    @Test
    void deleting_a_list_deletes_its_subscriptions_and_keeps_the_history_without_it() throws SQLException {
        long list = list("news");
        long ann = subscriber("ann@example.com");
        subscribe(ann, list);
        sql("INSERT INTO subscriber_event (subscriber_id, at, kind, list_id, detail) VALUES (" + ann + ", " + NOW
                + ", 'subscribed', " + list + ", 'list news')");
        sql("DELETE FROM subscriber_list WHERE id = " + list);
        assertThat(one("SELECT COUNT(*) FROM subscription")).isEqualTo("0");
        assertThat(one("SELECT COALESCE(list_id, 'none') FROM subscriber_event")).isEqualTo("none");
        assertThat(one("SELECT COUNT(*) FROM subscriber")).isEqualTo("1");
    }

    @Test
    void list_names_are_unique_whatever_their_case() throws SQLException {
        list("News");
        assertThatThrownBy(() -> list("news")).isInstanceOf(SQLException.class).hasMessageContaining("uq_subscriber_list_name");
    }

    private static long subscriber(String email) throws SQLException {
        return insert("INSERT INTO subscriber (email, status, created_at, updated_at) VALUES ('" + email + "', 'enabled', "
                + NOW + ", " + NOW + ")");
    }

    private static long list(String name) throws SQLException {
        return insert("INSERT INTO subscriber_list (name, visibility, optin, created_at, updated_at) VALUES ('" + name
                + "', 'private', 'single', " + NOW + ", " + NOW + ")");
    }

    private static void subscribe(long subscriber, long list) throws SQLException {
        sql("INSERT INTO subscription (subscriber_id, list_id, status, source, created_at, updated_at) VALUES (" + subscriber
                + ", " + list + ", 'confirmed', 'operator', " + NOW + ", " + NOW + ")");
    }

    private static long insert(String sql) throws SQLException {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate(sql, Statement.RETURN_GENERATED_KEYS);
            try (ResultSet rs = s.getGeneratedKeys()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static void sql(String sql) throws SQLException {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static String one(String sql) throws SQLException {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
