package dev.mailrun.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ./mailrun launcher builds the jar with Maven when it is missing. Here it runs as it is, with real
 * Maven, in a folder whose pom builds nothing, its output going to a file as in a redirected demo.
 */
class LauncherTest {

    @TempDir
    Path dir;

    @Test
    void a_build_whose_output_goes_to_a_file_writes_no_terminal_escape_codes() throws Exception {
        Files.copy(Path.of("mailrun"), dir.resolve("mailrun"));
        Files.writeString(dir.resolve("pom.xml"), """
                <project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
                <groupId>launcher.test</groupId><artifactId>nothing</artifactId><version>1</version>
                <packaging>pom</packaging></project>
                """);
        Path err = dir.resolve("err.txt");
        Process p = new ProcessBuilder("bash", dir.resolve("mailrun").toString(), "--version")
                .redirectOutput(dir.resolve("out.txt").toFile()).redirectError(err.toFile()).start();
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();

        String said = Files.readString(err);
        assertThat(said).contains("mailrun: building target/mailrun.jar ...");
        assertThat(said).as("what the build wrote: %s", said.replace("\u001b", "ESC")).doesNotContain("\u001b");
    }
}
