package dev.mailrun.app;

import dev.mailrun.app.config.ConfigLoader;
import dev.mailrun.app.config.MailrunConfig;
import dev.mailrun.db.Migrations;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * What a command runs with: the validated configuration and, opened on first use, the database.
 * Closing it closes the pool and stops an embedded server this process started.
 */
public final class AppContext implements AutoCloseable {

    private final MailrunConfig config;
    private final Clock clock;
    private Database database;
    private volatile boolean schemaChecked;

    private AppContext(MailrunConfig config, Clock clock) {
        this.config = config;
        this.clock = clock;
    }

    public static AppContext load(Optional<Path> configFile, Map<String, String> env, Clock clock) {
        MailrunConfig config = ConfigLoader.load(configFile, env);
        Logging.apply(config.log());
        return new AppContext(config, clock);
    }

    /**
     * The same database and clock with other settings (the demo's relay and tick). The copy shares
     * this context's database and must not outlive it; closing the copy closes nothing.
     */
    AppContext with(MailrunConfig other) {
        AppContext copy = new AppContext(other, clock);
        copy.parent = this;
        return copy;
    }

    private AppContext parent;

    public MailrunConfig config() {
        return config;
    }

    public Clock clock() {
        return clock;
    }

    /** The database, with the schema checked to be current. */
    public DataSource dataSource() {
        DataSource ds = rawDataSource();
        if (!schemaChecked) {
            // Once per process is enough: a schema found current does not fall behind while it runs, and the wiring
            // asks for the database a few dozen times (a Flyway check each would read its history table as often).
            new Migrations(ds).requireCurrent();
            schemaChecked = true;
        }
        return ds;
    }

    /** The database without the schema check: only {@code db migrate} and {@code db status} use it. */
    public synchronized DataSource rawDataSource() {
        if (parent != null) {
            return parent.rawDataSource();
        }
        if (database == null) {
            database = Database.open(config.db());
        }
        return database.dataSource();
    }

    public String describeDatabase() {
        if (parent != null) {
            return parent.describeDatabase();
        }
        rawDataSource();
        return database.describe();
    }

    @Override
    public synchronized void close() {
        if (database != null) {
            database.close();
            database = null;
        }
    }
}
