package dev.mailrun.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Where the test suite's embedded MariaDB keeps its data: in memory ({@code /dev/shm}) when the
 * machine has one with room, else under {@code target/}. Every test class creates and drops a
 * database of some fifty tables, and every create and drop syncs files to disk; in memory that
 * costs a quarter of the time, and the data is thrown away after the run anyway. One directory per
 * checkout (named after its path), so two checkouts' builds never share it; a directory left by a
 * killed run is emptied before a new server starts in it, and deleted when that server stops.
 * {@code -Dmailrun.test.db.in-memory=false} keeps the data under {@code target/} (to compare, or to
 * look at the files after a run).
 */
final class InMemoryDataDir {

    private static final Path SHM = Path.of("/dev/shm");
    /** Room enough for the installed system tables, the redo log and the largest test's data, with margin. */
    private static final long NEEDED = 1L << 30;

    private InMemoryDataDir() {}

    /** The in-memory data directory for the server under {@code serverDir}, if this machine has room for one. */
    static Optional<Path> forServer(Path serverDir) {
        if (!Boolean.parseBoolean(System.getProperty("mailrun.test.db.in-memory", "true"))) {
            return Optional.empty();
        }
        try {
            if (!Files.isDirectory(SHM) || !Files.isWritable(SHM) || Files.getFileStore(SHM).getUsableSpace() < NEEDED) {
                return Optional.empty();
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        String key = HexFormat.of().toHexDigits(serverDir.toAbsolutePath().normalize().toString().hashCode());
        return Optional.of(SHM.resolve("mailrun-test-db-" + key));
    }

    /** Deletes {@code dir} and everything in it; nothing when it does not exist. */
    static void delete(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
