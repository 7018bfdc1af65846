package dev.mailrun.db;

import java.util.List;
import java.util.stream.IntStream;
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
        return apply().applied().size();
    }

    /** Applies pending migrations; says from which version to which, and which versions ran. */
    public Run apply() {
        String from = status().current();
        MigrateResult result = flyway.migrate();
        List<String> applied = result.migrations.stream()
                .filter(m -> m.version != null && !m.version.isEmpty())   // repeatable migrations have no version
                .map(m -> m.version).toList();
        return new Run(from, status().current(), applied);
    }

    /**
     * One migrate: the version before ({@link SchemaStatus#EMPTY} for none), the version after and the
     * versions applied, in order. Versions are names, not a count: sql/ has no V14, so applying V1 to V31
     * is 30 migrations.
     */
    public record Run(String from, String to, List<String> applied) {
        public Run {
            applied = List.copyOf(applied);
        }

        /** The whole-number versions between the first and the last applied that do not exist. */
        public List<Integer> gaps() {
            try {
                List<Integer> numbers = applied.stream().map(Integer::parseInt).toList();
                if (numbers.isEmpty()) {
                    return List.of();
                }
                return IntStream.rangeClosed(numbers.get(0), numbers.get(numbers.size() - 1))
                        .filter(v -> !numbers.contains(v)).boxed().toList();
            } catch (NumberFormatException dotted) {
                return List.of();   // versions such as 2.1 have no gaps to speak of
            }
        }
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
