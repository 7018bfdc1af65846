package dev.mailrun.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import java.util.Optional;

/** Connection pools for mailrun's database, with the driver settings the code relies on. */
public final class DataSources {

    private DataSources() {}

    /**
     * @param initSql run on every new connection; tests use it to force a non-UTC session zone.
     */
    public static HikariDataSource create(String url, String user, String password, int maxPoolSize,
                                          String poolName, Optional<String> initSql) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setPassword(password);
        config.setPoolName(poolName);
        config.setMaximumPoolSize(maxPoolSize);
        config.setMinimumIdle(1);
        config.setConnectionTimeout(Duration.ofSeconds(10).toMillis());
        config.setInitializationFailTimeout(Duration.ofSeconds(10).toMillis());
        initSql.ifPresent(config::setConnectionInitSql);
        // Writes on the queue (marks, results, the daily counts) find their rows through indexes;
        // under REPEATABLE READ their gap locks deadlock with one another. READ COMMITTED locks rows
        // only, and a claim's plain read sees the latest committed rows.
        config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
        // One round trip for a batch of inserts/updates: the hot paths depend on it.
        config.addDataSourceProperty("rewriteBatchedStatements", "true");
        // The driver parses every statement's text for its placeholders; the cache keeps that parse.
        // Its default length limit (256 characters) left out every statement of the sending path
        // (claims, marks, multi-row results): 4 KB covers them up to a 150-row result statement.
        config.addDataSourceProperty("cachePrepStmts", "true");
        config.addDataSourceProperty("prepStmtCacheSize", "250");
        config.addDataSourceProperty("prepStmtCacheSqlLimit", "4096");
        config.addDataSourceProperty("characterEncoding", "UTF-8");
        // Timestamps cross the wire as UTC LocalDateTime (see SqlTime); keep the driver from
        // second-guessing them with the JVM zone.
        config.addDataSourceProperty("connectionTimeZone", "UTC");
        config.addDataSourceProperty("preserveInstants", "false");
        config.addDataSourceProperty("tcpKeepAlive", "true");
        return new HikariDataSource(config);
    }
}
