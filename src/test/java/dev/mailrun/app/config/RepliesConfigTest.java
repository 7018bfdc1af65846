package dev.mailrun.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code replies.*}: off unless replies.imap.host is set; each problem one line naming its key. */
class RepliesConfigTest {

    private static final String SECRET = "a-test-secret-that-is-long-enough-0123456789";

    private static MailrunConfig load(Map<String, String> keys) {
        Map<String, String> env = new HashMap<>();
        keys.forEach((k, v) -> env.put(ConfigKeys.find(k).orElseThrow().envName(), v));
        return ConfigLoader.load(Optional.empty(), env);
    }

    @Test
    void without_a_host_no_reply_is_counted() {
        assertThat(load(Map.of()).replies().counted()).isFalse();
    }

    @Test
    void a_replies_mailbox_is_read_with_its_own_settings_and_its_password_never_shown() {
        MailrunConfig config = load(Map.of("unsubscribe.secret", SECRET, "replies.imap.host", "imap.example.com",
                "replies.imap.user", "news@example.com", "replies.imap.password", "s3cret-pass", "replies.interval", "2m",
                "replies.imap.processed-folder", "Counted"));
        RepliesConfig replies = config.replies();
        assertThat(replies.counted()).isTrue();
        assertThat(replies.interval()).isEqualTo(Duration.ofMinutes(2));
        assertThat(replies.mailbox().orElseThrow().name()).isEqualTo("replies");
        assertThat(replies.mailbox().orElseThrow().port()).isEqualTo(993);
        assertThat(replies.mailbox().orElseThrow().processedFolder()).contains("Counted");
        assertThat(config.toString()).contains("imap.example.com").doesNotContain("s3cret-pass");
    }

    @Test
    void each_bad_replies_setting_is_one_line_naming_its_key() {
        assertThatThrownBy(() -> load(Map.of("unsubscribe.secret", SECRET, "replies.imap.host", "imap.example.com")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("replies.imap.user");
        assertThatThrownBy(() -> load(Map.of("unsubscribe.secret", SECRET, "replies.imap.host", "imap.example.com",
                "replies.imap.user", "u", "replies.imap.processed-folder", "inbox")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("configuration: replies.imap.processed-folder must differ from replies.imap.folder (INBOX)");
        assertThatThrownBy(() -> load(Map.of("replies.imap.host", "imap.example.com", "replies.imap.user", "u")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("configuration key replies.imap.host: needs unsubscribe.secret: replies are traced by the signed"
                        + " Message-IDs, whose key derives from it");
        assertThatThrownBy(() -> load(Map.of("unsubscribe.secret", SECRET, "replies.imap.host", "IMAP.example.com",
                "replies.imap.user", "box", "bounce.imap.host", "imap.example.com", "bounce.imap.user", "BOX")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("configuration key replies.imap.folder: is the bounce mailbox's folder (bounce.imap.*);"
                        + " replies need a mailbox or folder of their own");
        assertThat(load(Map.of("unsubscribe.secret", SECRET, "replies.imap.host", "imap.example.com", "replies.imap.user",
                "box", "replies.imap.folder", "Replies", "bounce.imap.host", "imap.example.com", "bounce.imap.user", "box"))
                .replies().counted()).isTrue();
        assertThatThrownBy(() -> load(Map.of("replies.interval", "5s")))
                .hasMessageStartingWith("configuration key replies.interval: must be 10s–1d");
    }
}
