package dev.mailrun.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WebVersionConfigTest {

    @Test
    void links_last_as_long_as_tracking_keeps_events_by_default_and_show_the_recipients_fields() {
        WebVersionConfig c = ConfigLoader.load(Optional.empty(), Map.of()).webVersion();

        assertThat(c).isEqualTo(WebVersionConfig.DEFAULTS);
        assertThat(c.ttl()).isEqualTo(Duration.ofDays(180)).isEqualTo(ConfigLoader.load(Optional.empty(),
                Map.of("MAILRUN_TRACKING_ENABLED", "true", "MAILRUN_TRACKING_BASE_URL", "https://t.example",
                        "MAILRUN_HTTP_PORT", "8080")).tracking().settings().orElseThrow().retention());
        assertThat(c.personal()).isTrue();
    }

    @Test
    void both_keys_are_read_and_a_bad_ttl_stops_the_start_naming_the_key() {
        WebVersionConfig c = ConfigLoader.load(Optional.empty(),
                Map.of("MAILRUN_WEBVERSION_TTL", "30d", "MAILRUN_WEBVERSION_PERSONAL", "false")).webVersion();
        assertThat(c).isEqualTo(new WebVersionConfig(Duration.ofDays(30), false));

        assertThatThrownBy(() -> ConfigLoader.load(Optional.empty(), Map.of("MAILRUN_WEBVERSION_TTL", "1h")))
                .hasMessageStartingWith("configuration key webversion.ttl:");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.empty(), Map.of("MAILRUN_WEBVERSION_PERSONAL", "maybe")))
                .hasMessageStartingWith("configuration key webversion.personal:");
    }
}
