package dev.mailrun.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.events.EventsSettings;
import dev.mailrun.events.delivery.Endpoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The events.* keys: endpoints named in events.endpoints, each validated with errors naming its key. */
class EventsConfigTest {

    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    @TempDir
    Path dir;

    private EventsSettings load(String content, Map<String, String> env) throws Exception {
        Path f = dir.resolve("mailrun.properties");
        Files.writeString(f, content);
        return ConfigLoader.load(Optional.of(f), env).events();
    }

    @Test
    void named_endpoints_are_read_from_the_file_and_the_environment() throws Exception {
        EventsSettings s = load("""
                events.endpoints=crm, ops
                events.crm.url=https://crm.example.com/hooks/mailrun
                events.crm.types=recipient.*, campaign.paused
                events.crm.batch=1
                events.ops.url=https://ops.example.com/in
                """, Map.of("MAILRUN_EVENTS_CRM_SECRET", SECRET, "MAILRUN_EVENTS_OPS_SECRET", SECRET));
        assertThat(s.endpoints()).extracting(Endpoint::name).containsExactly("crm", "ops");
        Endpoint crm = s.endpoint("crm").orElseThrow();
        assertThat(crm.batch()).isEqualTo(1);
        assertThat(crm.types().matches("recipient.bounced")).isTrue();
        assertThat(crm.types().matches("campaign.started")).isFalse();
        assertThat(crm.disableAfter()).isEqualTo(Duration.ofDays(3));
        assertThat(s.endpoint("ops").orElseThrow().types().matches("endpoint.disabled")).isTrue();
        assertThat(crm.toString()).doesNotContain(SECRET.substring(6));
    }

    @Test
    void no_endpoints_by_default() throws Exception {
        assertThat(load("", Map.of()).endpoints()).isEmpty();
    }

    @Test
    void each_wrong_endpoint_setting_is_an_error_naming_its_key() {
        assertThatThrownBy(() -> load("events.endpoints=crm\nevents.crm.secret=" + SECRET + "\n", Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("events.crm.url");
        assertThatThrownBy(() -> load("events.endpoints=crm\nevents.crm.url=https://crm.example.com\nevents.crm.secret=not-a-whsec-value\n", Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("events.crm.secret").hasMessageNotContaining("not-a-whsec-value");
        assertThatThrownBy(() -> load("events.endpoints=crm\nevents.crm.url=http://crm.example.com\nevents.crm.secret=" + SECRET + "\n", Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("events.crm.allow-http");
        assertThatThrownBy(() -> load("events.endpoints=crm\nevents.crm.url=https://crm.example.com\nevents.crm.secret=" + SECRET
                + "\nevents.crm.types=recipient.*, bounces\n", Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("events.crm.types").hasMessageContaining("bounces");
        assertThatThrownBy(() -> load("events.endpoints=crm\nevents.crm.url=https://crm.example.com\nevents.crm.secret=" + SECRET
                + "\nevents.crm.batch=5000\n", Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("events.crm.batch");
        assertThatThrownBy(() -> load("events.endpoints=Crm\n", Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("events.endpoints");
    }

    @Test
    void a_key_of_an_endpoint_not_named_in_events_endpoints_is_an_error() {
        assertThatThrownBy(() -> load("events.endpoints=crm\nevents.crm.url=https://crm.example.com\nevents.crm.secret=" + SECRET
                + "\nevents.ops.url=https://ops.example.com\n", Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("events.ops.url").hasMessageContaining("events.endpoints (crm)");
        assertThatThrownBy(() -> load("", Map.of("MAILRUN_EVENTS_OPS_URL", "https://ops.example.com")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("MAILRUN_EVENTS_OPS_URL");
    }

    @Test
    void an_endpoint_on_an_internal_address_is_refused_at_start_unless_private_addresses_are_allowed() throws Exception {
        for (String url : new String[] {"https://127.0.0.1/hooks", "https://localhost:8443/hooks", "https://10.1.2.3/in",
                "https://192.168.0.7/in", "https://169.254.169.254/latest", "https://[::1]/hooks", "https://[fd00::5]/in"}) {
            assertThatThrownBy(() -> load("events.endpoints=crm\nevents.crm.url=" + url + "\nevents.crm.secret=" + SECRET + "\n",
                    Map.of())).as(url)
                    .isInstanceOf(ConfigException.class)
                    .hasMessageStartingWith("configuration key events.crm.url: its host resolves only to internal addresses (")
                    .hasMessageEndingWith("), which delivery refuses: use a public address, or set"
                            + " events.crm.allow-private-addresses=true for a receiver on this machine or network");
            assertThat(load("events.endpoints=crm\nevents.crm.url=" + url + "\nevents.crm.secret=" + SECRET
                    + "\nevents.crm.allow-private-addresses=true\n", Map.of()).endpoint("crm")).as(url).isPresent();
        }
        assertThat(load("events.endpoints=crm\nevents.crm.url=https://93.184.215.14/in\nevents.crm.secret=" + SECRET + "\n",
                Map.of()).endpoint("crm")).isPresent();
    }
}
