package dev.mailrun.app.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.SQLException;

/**
 * Where an export goes: standard output for {@code -}, else a file that appears only once it is
 * complete (written next to it under a temporary name, then moved over it), so a failed export
 * never leaves a truncated file that looks whole.
 */
final class CsvOutput {

    /** Writes the export to a writer and returns how many rows it wrote. */
    @FunctionalInterface
    interface Export {
        long writeTo(Writer out) throws IOException, SQLException;
    }

    private CsvOutput() {}

    static boolean isStdout(String target) {
        return target == null || target.equals("-");
    }

    static long write(String target, PrintWriter stdout, Export export) throws IOException, SQLException {
        if (isStdout(target)) {
            long n = export.writeTo(stdout);
            stdout.flush();
            return n;
        }
        Path file = Path.of(target).toAbsolutePath();
        Path dir = file.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new UsageException(target + ": directory " + dir + " does not exist");
        }
        if (Files.isDirectory(file)) {
            throw new UsageException(target + ": is a directory");
        }
        Path partial = Files.createTempFile(dir, "." + file.getFileName(), ".part");
        try {
            long n;
            try (Writer w = Files.newBufferedWriter(partial, StandardCharsets.UTF_8)) {
                n = export.writeTo(w);
            }
            Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return n;
        } finally {
            Files.deleteIfExists(partial);
        }
    }
}
