package dev.mailrun.db;

import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationInfoService;
import org.flywaydb.core.api.output.MigrateResult;

/** The schema in {@code sql/} (packaged as {@code classpath:db/migration}), applied by Flyway. */
public final class Migrations {

    private final Flyway flyway;

    public Migrations(DataSource dataSource) {
        this.flyway = Flyway.configure()
                .dataSource(dataSource)
                .locations("classpath:db/migration")
                .failOnMissingLocations(true)
                .load();
    }

    /** Applies pending migrations; returns how many ran (0 when already current). */
    public int migrate() {
        MigrateResult result = flyway.migrate();
        return result.migrationsExecuted;
    }

    public SchemaStatus status() {
        MigrationInfoService info = flyway.info();
        MigrationInfo current = info.current();
        MigrationInfo[] all = info.all();
        String latest = all.length == 0 ? "none" : all[all.length - 1].getVersion().getVersion();
        return new SchemaStatus(
                current == null ? SchemaStatus.EMPTY : current.getVersion().getVersion(),
                latest,
                info.pending().length);
    }

    /** Throws with an actionable message unless every migration has been applied. */
    public void requireCurrent() {
        SchemaStatus status = status();
        if (!status.isCurrent()) {
            throw new SchemaNotCurrentException(status);
        }
    }

    /** @param current the applied version, {@link #EMPTY} when the database has no schema yet */
    public record SchemaStatus(String current, String latest, int pending) {

        public static final String EMPTY = "empty";

        public boolean isCurrent() {
            return pending == 0;
        }

        /** "version 16", or "no schema yet" for a database nothing was applied to. */
        public String describeCurrent() {
            return current.equals(EMPTY) ? "no schema yet" : "version " + current;
        }
    }

    public static final class SchemaNotCurrentException extends RuntimeException {
        public SchemaNotCurrentException(SchemaStatus status) {
            super("the database has " + status.describeCurrent() + " but mailrun needs version " + status.latest()
                    + " (" + status.pending() + " pending migration(s)); run: mailrun db migrate");
        }
    }
}
