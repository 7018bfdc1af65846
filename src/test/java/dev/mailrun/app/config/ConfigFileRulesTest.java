package dev.mailrun.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the properties file and every key's value must be, checked once at every start whatever the command. */
class ConfigFileRulesTest {

    @TempDir
    Path dir;

    private Path file(String content) throws Exception {
        Path f = dir.resolve("mailrun.properties");
        Files.writeString(f, content);
        return f;
    }

    private MailrunConfig load(String content) throws Exception {
        return ConfigLoader.load(Optional.of(file(content)), Map.of());
    }

    @Test
    void a_key_set_twice_is_refused_naming_the_key_and_both_lines() throws Exception {
        Path f = file("# first\ndb.user=mailer\n\nsmtp.host=relay.example.com\ndb.user = other\n");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.of(f), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessage("configuration file " + f + " sets db.user twice, on lines 2 and 5; keep one");
    }

    @Test
    void a_continued_value_counts_once_and_its_key_is_placed_on_its_first_line() throws Exception {
        Path f = file("smtp.helo-name=mx.\\\n    example.com\ndb.user=a\nsmtp.helo-name=b\n");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.of(f), Map.of()))
                .hasMessage("configuration file " + f + " sets smtp.helo-name twice, on lines 1 and 4; keep one");
        assertThat(load("smtp.helo-name=mx.\\\n    example.com\n# a comment ending in a backslash \\\ndb.user=a\n")
                .relays().first().smtp().heloName()).isEqualTo("mx.example.com");
    }

    @Test
    void a_file_that_is_not_utf8_names_the_line() throws Exception {
        Path f = dir.resolve("latin1.properties");
        Files.write(f, "db.user=mailer\n# caf\u00e9\nsmtp.helo-name=mx\n".getBytes(StandardCharsets.ISO_8859_1));
        assertThatThrownBy(() -> ConfigLoader.load(Optional.of(f), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessage("configuration file " + f + " line 2 is not UTF-8 (save the file as UTF-8; Latin-1 and"
                        + " Windows-1252 are not read)");
    }

    @Test
    void a_key_no_command_reads_is_still_checked_at_start() throws Exception {
        // The bounce mailbox is off (no bounce.imap.host), so nothing reads bounce.imap.tls; still a typo there is refused.
        assertThatThrownBy(() -> load("bounce.imap.tls=maybe\n"))
                .hasMessage("configuration key bounce.imap.tls: must be true or false, got 'maybe'");
        assertThatThrownBy(() -> load("replies.imap.port=imap\n"))
                .hasMessage("configuration key replies.imap.port: must be a whole number, got 'imap'");
        assertThatThrownBy(() -> load("feedback.ses.auto-confirm=maybe\n"))
                .hasMessage("configuration key feedback.ses.auto-confirm: must be true or false, got 'maybe'");
        assertThatThrownBy(() -> load("import.reject-role=maybe\n"))
                .hasMessage("configuration key import.reject-role: must be true or false, got 'maybe'");
        assertThatThrownBy(() -> load("smtp.relays=backup\nsmtp.backup.host=b.example.com\nsmtp.backup.tls=sometimes\n"))
                .hasMessage("configuration key smtp.backup.tls: must be one of none, starttls-optional, starttls-required,"
                        + " implicit, got 'sometimes'");
    }

    @Test
    void booleans_are_exactly_true_or_false_in_any_case() throws Exception {
        for (String v : new String[] {"yes", "no", "on", "off", "1", "0", "y"}) {
            assertThatThrownBy(() -> load("import.reject-role=" + v + "\n")).as(v)
                    .hasMessage("configuration key import.reject-role: must be true or false, got '" + v + "'");
        }
        assertThat(load("import.reject-role=TRUE\n").imports().rejectRole()).isTrue();
        assertThat(load("import.reject-role=False\n").imports().rejectRole()).isFalse();
    }

    @Test
    void named_values_are_read_in_any_case_and_a_wrong_one_lists_the_right_ones() throws Exception {
        assertThat(load("log.format=JSON\n").log().format()).isEqualTo(LogConfig.Format.JSON);
        assertThat(load("smtp.tls=STARTTLS-REQUIRED\n").relays().first().smtp().tls()).isEqualTo(dev.mailrun.mail.smtp.TlsMode.STARTTLS_REQUIRED);
        assertThat(load("log.level=Warn\n").log().level()).isEqualTo(LogConfig.Level.WARN);
        assertThatThrownBy(() -> load("smtp.tls=STARTTLS\n"))
                .hasMessage("configuration key smtp.tls: must be one of none, starttls-optional, starttls-required, implicit,"
                        + " got 'STARTTLS'");
    }
}
