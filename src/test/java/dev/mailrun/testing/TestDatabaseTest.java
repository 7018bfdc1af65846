package dev.mailrun.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.db.Migrations;
import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class TestDatabaseTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @Test
    void schema_is_current_after_migration_and_a_second_migrate_is_a_no_op() {
        Migrations migrations = new Migrations(db.dataSource());
        assertThat(migrations.status().isCurrent()).isTrue();
        assertThat(migrations.migrate()).isZero();
    }

    @Test
    void each_class_database_is_the_migrated_template_table_for_table_and_row_for_row() throws Exception {
        String template = TestDatabase.template().name();
        try (Connection c = db.dataSource().getConnection()) {
            List<String> tables = SchemaTemplate.tables(c, template);
            assertThat(tables).contains("flyway_schema_history", "recipient");
            assertThat(SchemaTemplate.tables(c, db.databaseName())).isEqualTo(tables);
            for (String table : tables) {
                assertThat(SchemaTemplate.createStatement(c, db.databaseName(), table)).as(table)
                        .isEqualTo(SchemaTemplate.createStatement(c, template, table));
                assertThat(rows(c, db.databaseName(), table)).as(table).isEqualTo(rows(c, template, table));
            }
        }
    }

    private static List<String> rows(Connection c, String database, String table) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM `" + database + "`.`" + table + "`")) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= columns; i++) {
                    row.append(rs.getString(i)).append('|');
                }
                rows.add(row.toString());
            }
        }
        rows.sort(null);
        return rows;
    }

    @Test
    void session_runs_in_a_non_utc_zone_yet_instants_round_trip_unchanged() throws Exception {
        Instant instant = Instant.parse("2026-03-29T01:30:00.123Z"); // inside a DST change in Europe
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT @@session.time_zone")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("-08:00");
            }
            s.execute("CREATE TEMPORARY TABLE t (at DATETIME(3))");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?)")) {
                SqlTime.set(ps, 1, instant);
                ps.executeUpdate();
            }
            try (ResultSet rs = s.executeQuery("SELECT at, TIMESTAMPDIFF(SECOND, at, UTC_TIMESTAMP()) FROM t")) {
                rs.next();
                assertThat(SqlTime.get(rs, 1)).isEqualTo(instant);
            }
        }
    }

    @Test
    void database_clock_is_read_as_utc_whatever_the_session_zone() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT UTC_TIMESTAMP(3)")) {
            rs.next();
            Instant dbNow = SqlTime.get(rs, 1);
            assertThat(dbNow).isBetween(Instant.now().minusSeconds(60), Instant.now().plusSeconds(60));
        }
    }
}
