package dev.mailrun.app.config;

import dev.mailrun.db.JdbcUrls;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where the database is. Without a URL mailrun runs an embedded MariaDB in {@code embeddedDir}. The URL
 * may carry credentials; it is shown only through {@link JdbcUrls#masked}.
 */
public record DbConfig(Optional<String> url, String user, String password, int poolSize, Path embeddedDir) {

    public DbConfig {
        url.ifPresent(u -> {
            if (JdbcUrls.forDriver(u).isEmpty()) {
                throw ConfigException.invalid("db.url", "must start with jdbc:mysql:// (or jdbc:mysql:replication://,"
                        + " jdbc:mysql:loadbalance://, jdbc:mysql+srv://), got '" + JdbcUrls.masked(u) + "'");
            }
        });
        if (user.isBlank()) {
            throw ConfigException.invalid("db.user", "must not be empty");
        }
    }

    /** The URL for mysql-connector-j, which speaks to both MySQL and MariaDB ({@link JdbcUrls#forDriver}). */
    public Optional<String> jdbcUrl() {
        return url.flatMap(JdbcUrls::forDriver);
    }

    @Override
    public String toString() {
        return "DbConfig[url=" + url.map(JdbcUrls::masked).orElse("(embedded)") + ", user=" + user + ", password=***, poolSize=" + poolSize
                + ", embeddedDir=" + embeddedDir + "]";
    }
}
