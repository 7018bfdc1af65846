package dev.mailrun.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.campaign.send.route.Relay;
import dev.mailrun.campaign.send.route.Relays;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RelaysConfigTest {

    @TempDir
    Path dir;

    private MailrunConfig load(String content, Map<String, String> env) throws Exception {
        Path f = dir.resolve("mailrun.properties");
        Files.writeString(f, content);
        return ConfigLoader.load(Optional.of(f), env);
    }

    @Test
    void without_smtp_relays_the_single_relay_keys_are_the_relay_default_alone() throws Exception {
        MailrunConfig c = load("smtp.host=relay.example\nsmtp.port=587\nsmtp.rate=20\n", Map.of());
        assertThat(c.relays().byName()).containsOnlyKeys(Relays.DEFAULT);
        assertThat(c.relays().defaultRoute().text()).isEqualTo("default:1");
        Relay only = c.relays().first();
        assertThat(only.smtp().host()).isEqualTo("relay.example");
        assertThat(only.rate()).isEqualTo(20);
        assertThat(c.relays().first().smtp().port()).isEqualTo(587);
        assertThat(only.name()).isEqualTo(Relays.DEFAULT);
    }

    @Test
    void named_relays_have_their_own_keys_share_the_timeouts_and_form_the_default_route_in_order() throws Exception {
        MailrunConfig c = load("""
                smtp.relays=primary,backup
                smtp.helo-name=mailer1.example.com
                smtp.read-timeout=45s
                smtp.primary.host=smtp.provider-a.example
                smtp.primary.port=587
                smtp.primary.tls=starttls-required
                smtp.primary.username=mailer
                smtp.primary.password=s3cret-a
                smtp.primary.rate=40
                smtp.primary.weight=70
                smtp.backup.host=smtp.provider-b.example
                smtp.backup.connections=2
                smtp.backup.weight=30
                """, Map.of("MAILRUN_SMTP_BACKUP_HELO_NAME", "mailer2.example.com"));
        assertThat(c.relays().defaultRoute().text()).isEqualTo("primary:70,backup:30");
        Relay primary = c.relays().byName().get("primary");
        assertThat(primary.smtp().port()).isEqualTo(587);
        assertThat(primary.smtp().username()).hasValue("mailer");
        assertThat(primary.rate()).isEqualTo(40);
        assertThat(primary.smtp().heloName()).isEqualTo("mailer1.example.com");
        assertThat(primary.smtp().readTimeout()).isEqualTo(Duration.ofSeconds(45));
        assertThat(primary.smtp().toString()).doesNotContain("s3cret-a");
        Relay backup = c.relays().byName().get("backup");
        assertThat(backup.smtp().host()).isEqualTo("smtp.provider-b.example");
        assertThat(backup.smtp().connections()).isEqualTo(2);
        assertThat(backup.smtp().heloName()).as("set by its environment variable").isEqualTo("mailer2.example.com");
        assertThat(backup.rate()).as("the default of smtp.<name>.rate").isEqualTo(10);
        assertThat(c.relays().first().smtp().host()).as("send-test goes to the first relay of the route").isEqualTo("smtp.provider-a.example");
    }

    @Test
    void the_relay_default_can_stand_in_a_route_with_its_weight_in_smtp_weight() throws Exception {
        MailrunConfig c = load("smtp.relays=backup,default\nsmtp.host=old.example\nsmtp.weight=1\nsmtp.backup.host=b.example\n",
                Map.of("MAILRUN_SMTP_RELAYS", "default,backup"));
        assertThat(c.relays().defaultRoute().text()).isEqualTo("default:1,backup:0");
        assertThat(c.relays().first().smtp().host()).isEqualTo("old.example");
    }

    @Test
    void every_bad_relay_setting_is_one_line_naming_the_key() {
        assertThatThrownBy(() -> load("smtp.relays=primary\n", Map.of()))
                .hasMessage("configuration key smtp.primary.host: must be set");
        assertThatThrownBy(() -> load("smtp.relays=primary\nsmtp.primary.host=a.example\nsmtp.primary.port=0\n", Map.of()))
                .hasMessage("configuration key smtp.primary.port: must be between 1 and 65535, got '0'");
        assertThatThrownBy(() -> load("smtp.relays=primary\nsmtp.primary.host=a.example\nsmtp.primary.weight=-1\n", Map.of()))
                .hasMessage("configuration key smtp.primary.weight: must be between 0 and 10000, got '-1'");
        assertThatThrownBy(() -> load("smtp.relays=primary\nsmtp.primary.host=a.example\nsmtp.backup.host=b.example\n", Map.of()))
                .hasMessageStartingWith("configuration key smtp.backup.host in ")
                .hasMessageEndingWith(" belongs to no relay named in smtp.relays (primary)");
        assertThatThrownBy(() -> load("smtp.relays=Primary\n", Map.of()))
                .hasMessageStartingWith("configuration key smtp.relays: relay name 'Primary' must be");
        assertThatThrownBy(() -> load("smtp.relays=a,a\nsmtp.a.host=a.example\n", Map.of()))
                .hasMessage("configuration key smtp.relays: names relay 'a' twice");
        assertThatThrownBy(() -> load("smtp.relays=primary\nsmtp.primary.host=a.example\nsmtp.primary.username=u\n", Map.of()))
                .hasMessage("configuration key smtp.primary.password: must be set when smtp.primary.username is set");
        assertThatThrownBy(() -> load("smtp.relays=primary\nsmtp.primary.host=a.example\nsmtp.primary.username=u\n"
                + "smtp.primary.password=secret-x \n", Map.of()))
                .hasMessageStartingWith("configuration key smtp.primary.password: must not begin").hasMessageNotContaining("secret-x");
        assertThatThrownBy(() -> load("smtp.<name>.host=a.example\n", Map.of()))
                .hasMessageStartingWith("unknown configuration key smtp.<name>.host");
    }

    @Test
    void an_environment_variable_for_an_unknown_relay_or_a_misspelled_relay_key_is_refused_like_the_same_key_in_the_file() {
        String file = "smtp.relays=a,b\nsmtp.a.host=a.example\nsmtp.b.host=b.example\n";
        assertThatThrownBy(() -> load(file, Map.of("MAILRUN_SMTP_C_HOST", "c.example")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("environment variable MAILRUN_SMTP_C_HOST is no configuration key: it would set smtp.c.host,"
                        + " which belongs to no relay named in smtp.relays (a,b)");
        assertThatThrownBy(() -> load(file, Map.of("MAILRUN_SMTP_A_HOSTT", "a2.example")))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("environment variable MAILRUN_SMTP_A_HOSTT is no configuration key (");
        assertThatThrownBy(() -> load("", Map.of("MAILRUN_SMTP_BACKUP_HOST", "b.example")))
                .hasMessageEndingWith("which belongs to no relay named in smtp.relays (empty)");
        assertThatThrownBy(() -> load("", Map.of("MAILRUN_DB_URLL", "jdbc:mysql://a/x")))
                .hasMessageStartingWith("environment variable MAILRUN_DB_URLL is no configuration key");
        assertThatThrownBy(() -> load("", Map.of("MAILRUN_POLICY_DOMAIN_CORP_RATE", "5/s")))
                .hasMessageContaining("a domain group of your own is configured in the properties file");
    }

    @Test
    void environment_variables_of_named_relays_and_mailrun_variables_that_are_no_configuration_are_accepted() throws Exception {
        MailrunConfig c = load("smtp.relays=a,default\nsmtp.a.host=a.example\n", Map.of("MAILRUN_SMTP_A_PORT", "2525",
                "MAILRUN_SMTP_HOST", "d.example", "MAILRUN_POLICY_DOMAIN_GMAIL_RATE", "5/s",
                "MAILRUN_JAVA_OPTS", "-Xmx128m", "MAILRUN_TEST_DB_URL", "jdbc:mysql://127.0.0.1/test", "MAILRUN_IMAGE", "x"));
        assertThat(c.relays().byName().get("a").smtp().port()).isEqualTo(2525);
    }
}
