package dev.mailrun.bench;

import com.zaxxer.hikari.HikariDataSource;
import dev.mailrun.db.DataSources;
import dev.mailrun.db.Migrations;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/**
 * A fresh, migrated database on the local server for one benchmark run, dropped on close unless
 * {@code -Dbench.db.keep=true} (to read its plans and tables after the run). The server is
 * {@code -Dbench.db.server} (default {@code jdbc:mysql://127.0.0.1:3306/}, user root, empty password).
 */
public final class BenchDatabase implements AutoCloseable {

    public static final String SERVER = System.getProperty("bench.db.server", "jdbc:mysql://127.0.0.1:3306/");

    private final String name;
    private final HikariDataSource dataSource;

    private BenchDatabase(String name, HikariDataSource dataSource) {
        this.name = name;
        this.dataSource = dataSource;
    }

    public static BenchDatabase create(String name, int poolSize) throws SQLException {
        if (!name.matches("[a-z0-9_]+")) {
            throw new IllegalArgumentException("database name must be [a-z0-9_]+, got " + name);
        }
        admin("DROP DATABASE IF EXISTS " + name);
        admin("CREATE DATABASE " + name + " CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci");
        HikariDataSource ds = DataSources.create(url(name), "root", "", poolSize, "bench", Optional.empty());
        new Migrations(ds).migrate();
        return new BenchDatabase(name, ds);
    }

    /** A pool on a database another process created (the drain child). */
    public static HikariDataSource connect(String name, int poolSize) {
        return DataSources.create(url(name), "root", "", poolSize, "bench", Optional.empty());
    }

    public static String url(String name) {
        return SERVER + name;
    }

    public String name() {
        return name;
    }

    public HikariDataSource dataSource() {
        return dataSource;
    }

    public String serverVersion() throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT VERSION()")) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Override
    public void close() throws SQLException {
        dataSource.close();
        if (!Boolean.getBoolean("bench.db.keep")) {
            admin("DROP DATABASE IF EXISTS " + name);
        }
    }

    private static void admin(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(SERVER, "root", ""); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
