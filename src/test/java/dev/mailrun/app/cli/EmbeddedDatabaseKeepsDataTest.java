package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded MariaDB under {@code java.io.tmpdir} (a checkout in /tmp): what one command wrote,
 * the next command reads. Each command is its own JVM, as when an operator runs them one after another.
 */
class EmbeddedDatabaseKeepsDataTest {

    @TempDir
    Path workDir; // under java.io.tmpdir, like the checkout it stands for

    @Test
    void data_written_by_one_process_is_read_by_the_next_when_the_directory_is_under_the_temp_directory()
            throws Exception {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath();
        assertThat(workDir.toAbsolutePath().toString()).startsWith(tmp.toString());

        Run migrate = mailrun(tmp, "db", "migrate");
        assertThat(migrate.exitCode()).as(migrate.output()).isZero();
        assertThat(migrate.output()).containsPattern("Migrated the schema from no schema to version \\d+: applied \\d+ migrations?");

        Run status = mailrun(tmp, "db", "status");
        assertThat(status.exitCode()).as(status.output()).isZero();
        assertThat(status.output()).contains("(latest").contains(", 0 pending)").doesNotContain("no schema yet");
        assertThat(workDir.resolve("data/mariadb/db/mailrun")).isDirectory();
    }

    private record Run(int exitCode, String output) {}

    /** {@code mailrun ARGS} in a new JVM on this test's class path, in {@link #workDir}, with the default embedded database. */
    private Run mailrun(Path tmp, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djava.io.tmpdir=" + tmp,
                "-cp", System.getProperty("java.class.path"), "dev.mailrun.app.cli.Main"));
        command.addAll(List.of(args));
        Path log = workDir.resolve("mailrun-" + String.join("-", args) + ".log");
        ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("MAILRUN_"));
        Process p = pb.start();
        if (!p.waitFor(3, TimeUnit.MINUTES)) {
            p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            throw new AssertionError("mailrun " + String.join(" ", args) + " did not finish:\n" + Files.readString(log));
        }
        return new Run(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }
}
