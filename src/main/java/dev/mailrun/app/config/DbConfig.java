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
            if (!u.startsWith("jdbc:mysql://") && !u.startsWith("jdbc:mariadb://")) {
                throw ConfigException.invalid("db.url", "must start with jdbc:mysql://, got '" + JdbcUrls.masked(u) + "'");
            }
        });
        if (user.isBlank()) {
            throw ConfigException.invalid("db.user", "must not be empty");
        }
    }

    /** mysql-connector-j speaks to both MySQL and MariaDB; accept the MariaDB scheme for convenience. */
    public Optional<String> jdbcUrl() {
        return url.map(u -> u.startsWith("jdbc:mariadb://") ? "jdbc:mysql://" + u.substring("jdbc:mariadb://".length()) : u);
    }

    @Override
    public String toString() {
        return "DbConfig[url=" + url.map(JdbcUrls::masked).orElse("(embedded)") + ", user=" + user + ", password=***, poolSize=" + poolSize
                + ", embeddedDir=" + embeddedDir + "]";
    }
}
