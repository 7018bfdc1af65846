package dev.mailrun.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A database migrated once per test JVM, copied into each test class's database.
 *
 * <p>Running every migration for every test class cost seconds a class (Flyway's checks and some
 * thirty migrations, many rebuilding a table), over a hundred times a run. A copy is one
 * {@code CREATE TABLE} per table, the template's own {@code SHOW CREATE TABLE} (columns, indexes,
 * foreign keys, checks and table options as the migrations left them), and the template's rows
 * ({@code flyway_schema_history}, and whatever a migration inserted). Each class still starts from
 * exactly the migrated schema, which Flyway takes for current; {@link TestDatabaseTest} compares a
 * copy with the template.
 */
final class SchemaTemplate {

    private final String name;
    private final List<String> creates;
    private final List<String> tablesWithRows;
    private final List<String> columnLists;

    private SchemaTemplate(String name, List<String> creates, List<String> tablesWithRows, List<String> columnLists) {
        this.name = name;
        this.creates = creates;
        this.tablesWithRows = tablesWithRows;
        this.columnLists = columnLists;
    }

    /** Reads the migrated database {@code name} once: its tables' statements and which tables hold rows. */
    static SchemaTemplate of(Connection c, String name) throws SQLException {
        List<String> creates = new ArrayList<>();
        List<String> withRows = new ArrayList<>();
        List<String> columnLists = new ArrayList<>();
        for (String table : tables(c, name)) {
            creates.add(createStatement(c, name, table));
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT EXISTS (SELECT 1 FROM `" + name + "`.`" + table + "`)")) {
                rs.next();
                if (rs.getBoolean(1)) {
                    withRows.add(table);
                    columnLists.add(storedColumns(c, name, table));
                }
            }
        }
        return new SchemaTemplate(name, List.copyOf(creates), List.copyOf(withRows), List.copyOf(columnLists));
    }

    String name() {
        return name;
    }

    /** Makes the template's tables and rows in {@code target}, an empty database, on {@code c} (a server connection). */
    void copyInto(Connection c, String target) throws SQLException {
        try (Statement s = c.createStatement()) {
            // Tables come in name order, not in the order of their foreign keys.
            s.execute("SET SESSION foreign_key_checks = 0");
            try {
                s.execute("USE `" + target + "`");
                for (String create : creates) {
                    s.execute(create);
                }
                for (int i = 0; i < tablesWithRows.size(); i++) {
                    String columns = columnLists.get(i);
                    s.execute("INSERT INTO `" + target + "`.`" + tablesWithRows.get(i) + "` (" + columns + ") SELECT "
                            + columns + " FROM `" + name + "`.`" + tablesWithRows.get(i) + "`");
                }
            } finally {
                s.execute("SET SESSION foreign_key_checks = 1");
            }
        }
    }

    /** The tables of {@code database}, by name; a view or a sequence there is refused rather than left out. */
    static List<String> tables(Connection c, String database) throws SQLException {
        List<String> tables = new ArrayList<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SHOW FULL TABLES FROM `" + database + "`")) {
            while (rs.next()) {
                if ("TEMPORARY TABLE".equals(rs.getString(2))) {
                    continue;   // MariaDB lists the session's own temporary tables too; they are no part of the schema
                }
                if (!"BASE TABLE".equals(rs.getString(2))) {
                    throw new IllegalStateException("the test schema template cannot copy the " + rs.getString(2)
                            + " " + rs.getString(1) + " (SchemaTemplate copies tables only)");
                }
                tables.add(rs.getString(1));
            }
        }
        return tables;
    }

    /** {@code SHOW CREATE TABLE}: the statement that makes the table again, in whichever database is current. */
    static String createStatement(Connection c, String database, String table) throws SQLException {
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SHOW CREATE TABLE `" + database + "`.`" + table + "`")) {
            rs.next();
            return rs.getString(2);
        }
    }

    /** The columns a row copy writes: all but the generated ones, which the copy computes again. */
    private static String storedColumns(Connection c, String database, String table) throws SQLException {
        List<String> columns = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT COLUMN_NAME FROM information_schema.COLUMNS"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND COALESCE(GENERATION_EXPRESSION, '') = ''"
                + " ORDER BY ORDINAL_POSITION")) {
            ps.setString(1, database);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    columns.add("`" + rs.getString(1) + "`");
                }
            }
        }
        return String.join(", ", columns);
    }
}
