package dev.mailrun.mail.smtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.mail.Secret;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class SmtpSettingsTest {

    private final SmtpSettings base = SmtpSettings.of("relay.example.com", 587, TlsMode.STARTTLS_REQUIRED, "mx.example.com");

    @Test
    void to_string_never_shows_the_password() {
        SmtpSettings settings = base.withAuth("mailer", Secret.of("hunter2"));

        assertThat(settings.toString()).doesNotContain("hunter2").contains("password=***").contains("mailer");
        assertThat(Secret.of("hunter2")).hasToString("***");
    }

    @Test
    void invalid_values_fail_fast_with_a_message_naming_the_setting() {
        assertThatThrownBy(() -> SmtpSettings.of("", 25, TlsMode.NONE, "mx.example.com")).hasMessageStartingWith("smtp.host");
        assertThatThrownBy(() -> SmtpSettings.of("relay\t.example.com", 25, TlsMode.NONE, "mx.example.com")).hasMessageStartingWith("smtp.host");
        assertThatThrownBy(() -> SmtpSettings.of("relay", 0, TlsMode.NONE, "mx.example.com")).hasMessageStartingWith("smtp.port");
        assertThatThrownBy(() -> SmtpSettings.of("relay", 25, TlsMode.NONE, "bad helo")).hasMessageStartingWith("smtp.helo");
        assertThatThrownBy(() -> base.withConnections(0)).hasMessageStartingWith("smtp.connections");
        assertThatThrownBy(() -> base.withRate(-1)).hasMessageStartingWith("smtp.rate");
        assertThatThrownBy(() -> base.withTimeouts(Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(1)))
                .hasMessageStartingWith("smtp.connect-timeout");
        assertThatThrownBy(() -> new SmtpSettings("relay", 25, TlsMode.NONE, Optional.of("u"), Optional.empty(),
                Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(1), "mx.example.com", 4, 0))
                .hasMessageStartingWith("smtp.username and smtp.password");
    }

    @Test
    void session_properties_set_timeouts_tls_and_local_host_name() {
        Properties p = SmtpConnection.properties(base, ConnectionTimeouts.within(base, Duration.ofHours(1)));

        assertThat(p).containsEntry("mail.smtp.connectiontimeout", "30000").containsEntry("mail.smtp.timeout", "30000")
                .containsEntry("mail.smtp.writetimeout", "30000").containsEntry("mail.smtp.starttls.enable", "true")
                .containsEntry("mail.smtp.starttls.required", "true").containsEntry("mail.smtp.localhost", "mx.example.com")
                .containsEntry("mail.host", "mx.example.com");
        Properties implicit = SmtpConnection.properties(SmtpSettings.of("relay", 465, TlsMode.IMPLICIT, "mx.example.com"),
                ConnectionTimeouts.within(base, Duration.ofHours(1)));
        assertThat(implicit).containsEntry("mail.smtp.ssl.enable", "true");
    }

    @Test
    void only_the_connect_timeout_shrinks_near_the_deadline() {
        ConnectionTimeouts plenty = ConnectionTimeouts.within(base, Duration.ofMinutes(5));
        ConnectionTimeouts near = ConnectionTimeouts.within(base, Duration.ofSeconds(10));

        assertThat(plenty).isEqualTo(new ConnectionTimeouts(Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofSeconds(30)));
        assertThat(plenty.cutShort(base)).isFalse();
        // Read and write keep their configured values: the connection outlives this deadline, and
        // the deadline is kept by closing the socket.
        assertThat(near).isEqualTo(new ConnectionTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofSeconds(30)));
        assertThat(near.cutShort(base)).isTrue();
    }

    @Test
    void max_connections_below_the_start_count_is_refused_naming_both_keys() {
        assertThatThrownBy(() -> base.withConnections(8, 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("smtp.max-connections (4) must be at least smtp.connections (8), the count a pool starts with");
        assertThat(base.withConnections(8).maxConnections()).isEqualTo(SmtpSettings.DEFAULT_MAX_CONNECTIONS);
        // A start count above the ceiling raises the ceiling with it.
        assertThat(base.withConnections(2, 10).withConnections(40).maxConnections()).isEqualTo(40);
    }
}
