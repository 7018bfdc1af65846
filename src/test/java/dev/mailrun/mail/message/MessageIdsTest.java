package dev.mailrun.mail.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.mail.Secret;
import org.junit.jupiter.api.Test;

class MessageIdsTest {

    private final MessageIds ids = new MessageIds("example.com", Secret.of("0123456789abcdef-key"));

    @Test
    void an_id_is_derived_from_campaign_and_recipient_on_the_sender_domain() {
        String id = ids.derive(12, 3456);

        assertThat(id).matches("<c12\\.r3456\\.[0-9a-f]{16}@example\\.com>");
        assertThat(ids.derive(12, 3456)).isEqualTo(id);
        assertThat(ids.derive(12, 3457)).isNotEqualTo(id);
        assertThat(ids.derive(13, 3456)).isNotEqualTo(id);
    }

    @Test
    void parsing_returns_the_ids_only_for_genuine_ids() {
        String id = ids.derive(12, 3456);

        assertThat(ids.parse(id)).contains(new MessageIds.Ids(12, 3456));
        assertThat(ids.parse(id.replace("r3456", "r3457"))).isEmpty();
        assertThat(new MessageIds("example.com", Secret.of("another-key-0123456")).parse(id)).isEmpty();
        assertThat(ids.parse("<random@example.com>")).isEmpty();
    }

    @Test
    void an_any_domain_reader_reads_every_campaign_s_ids_with_the_key_and_derives_none() {
        MessageIds reader = MessageIds.anyDomain(Secret.of("0123456789abcdef-key"));
        String other = new MessageIds("news.example.org", Secret.of("0123456789abcdef-key")).derive(7, 8);

        assertThat(reader.parse(ids.derive(12, 3456))).contains(new MessageIds.Ids(12, 3456));
        assertThat(reader.parse(other)).contains(new MessageIds.Ids(7, 8));
        assertThat(reader.parse(other.replace("r8.", "r9."))).isEmpty();
        assertThat(MessageIds.anyDomain(Secret.of("another-key-0123456")).parse(other)).isEmpty();
        assertThatThrownBy(() -> reader.derive(1, 2)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void a_bad_domain_or_short_key_fails_fast() {
        assertThatThrownBy(() -> new MessageIds("exa mple.com", Secret.of("0123456789abcdef")))
                .hasMessageContaining("domain");
        assertThatThrownBy(() -> new MessageIds("example.com", Secret.of("short"))).hasMessageContaining("16");
    }
}
