package dev.mailrun.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.unsubscribe.PreferenceTokens;
import dev.mailrun.campaign.unsubscribe.SigningKey;
import dev.mailrun.campaign.unsubscribe.UnsubscribeTokens;
import dev.mailrun.campaign.unsubscribe.WebVersionTokens;
import dev.mailrun.testing.SettableClock;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ProductionLinksTest {

    private final SigningKey key = SigningKey.of("0123456789abcdef0123456789abcdef-test");
    private final UnsubscribeTokens tokens = new UnsubscribeTokens(key);
    private final SettableClock clock = SettableClock.at("2026-11-26T10:00:00Z");
    private final WebVersionTokens webVersions = new WebVersionTokens(key, Duration.ofDays(30), clock);
    private final URI base = URI.create("https://links.mailer.example");

    private ProductionLinks links(boolean mailboxRead, Optional<String> mailto) {
        return new ProductionLinks(tokens, webVersions, new PreferenceTokens(key, clock), base, mailboxRead, mailto, Optional.empty(), Optional.empty());
    }

    @Test
    void the_web_version_link_is_on_the_unsubscribe_base_and_names_its_recipient_until_it_expires() {
        String link = links(false, Optional.empty()).webVersion(12, 34);

        assertThat(link).startsWith("https://links.mailer.example/w/");
        String token = link.substring("https://links.mailer.example/w/".length());
        assertThat(webVersions.verify(token)).contains(new WebVersionTokens.Target(12, 34,
                Instant.parse("2026-12-26T10:00:00Z")));
    }

    @Test
    void the_default_mailto_is_unsubscribe_at_the_from_domain_of_each_message_not_the_link_host() {
        ProductionLinks links = links(true, Optional.empty());
        String token = tokens.token(12, 34, "ann@list.example");

        assertThat(links.mailto("news.example.org", 12, 34, "ann@list.example"))
                .contains("mailto:unsubscribe@news.example.org?subject=unsubscribe-" + token);
        assertThat(links.mailto("shop.example.net", 12, 34, "ann@list.example"))
                .contains("mailto:unsubscribe@shop.example.net?subject=unsubscribe-" + token);
    }

    @Test
    void an_explicit_mailto_wins_over_the_from_domain() {
        assertThat(links(true, Optional.of("optout@lists.example.com")).mailto("news.example.org", 12, 34, "ann@list.example"))
                .hasValueSatisfying(m -> assertThat(m).startsWith("mailto:optout@lists.example.com?subject=unsubscribe-"));
    }

    @Test
    void no_mailto_is_advertised_when_no_mailbox_reads_the_requests() {
        assertThat(links(false, Optional.empty()).mailto("news.example.org", 12, 34, "ann@list.example")).isEmpty();
    }
}
