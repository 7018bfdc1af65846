package dev.mailrun.app;

import com.zaxxer.hikari.HikariDataSource;
import dev.mailrun.app.config.DbConfig;
import dev.mailrun.db.DataSources;
import dev.mailrun.db.EmbeddedMariaDb;
import dev.mailrun.db.JdbcUrls;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The configured database, or the embedded one, with its pool; closing stops what it started. */
final class Database implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Database.class);
    static final String EMBEDDED_SCHEMA = "mailrun";

    private final EmbeddedMariaDb embedded; // null with db.url
    private final HikariDataSource pool;

    private Database(EmbeddedMariaDb embedded, HikariDataSource pool) {
        this.embedded = embedded;
        this.pool = pool;
    }

    static Database open(DbConfig config) {
        if (config.jdbcUrl().isPresent()) {
            return new Database(null, pool(config.jdbcUrl().get(), config));
        }
        EmbeddedMariaDb embedded = EmbeddedMariaDb.startOrAttach(config.embeddedDir().toAbsolutePath());
        try {
            createSchemaIfMissing(embedded);
            return new Database(embedded, pool(embedded.url(EMBEDDED_SCHEMA), config));
        } catch (RuntimeException | SQLException e) {
            embedded.close();
            throw e instanceof RuntimeException r ? r : new IllegalStateException(e.getMessage(), e);
        }
    }

    DataSource dataSource() {
        return pool;
    }

    String describe() {
        return embedded == null ? JdbcUrls.masked(pool.getJdbcUrl()) : "embedded MariaDB on port " + embedded.port();
    }

    private static HikariDataSource pool(String url, DbConfig config) {
        try {
            return DataSources.create(url, config.user(), config.password(), config.poolSize(), "mailrun", Optional.empty());
        } catch (RuntimeException e) {
            // Hikari wraps the driver's reason a few levels deep; the operator needs that reason, once.
            throw new DatabaseUnavailableException("cannot connect to the database at " + JdbcUrls.masked(url) + ": "
                    + JdbcUrls.masked(rootMessage(e)), e);
        }
    }

    private static void createSchemaIfMissing(EmbeddedMariaDb embedded) throws SQLException {
        try (Connection c = DriverManager.getConnection(embedded.serverUrl(), "root", "");
             Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE IF NOT EXISTS " + EMBEDDED_SCHEMA
                    + " CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci");
        }
    }

    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        return m.lines().findFirst().orElse(m);
    }

    @Override
    public void close() {
        pool.close();
        if (embedded != null) {
            embedded.close();
            log.debug("Embedded MariaDB stopped");
        }
    }

    static final class DatabaseUnavailableException extends RuntimeException {
        DatabaseUnavailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
