package dev.mailrun.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {

    @TempDir
    Path dir;

    private Path file(String content) throws Exception {
        Path f = dir.resolve("mailrun.properties");
        Files.writeString(f, content);
        return f;
    }

    @Test
    void defaults_apply_when_nothing_is_configured() throws Exception {
        MailrunConfig c = ConfigLoader.load(Optional.of(file("")), Map.of());
        assertThat(c.db().url()).isEmpty();
        assertThat(c.tick().interval()).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void environment_overrides_the_file() throws Exception {
        Path f = file("tick.interval=30s\ndb.url=jdbc:mysql://a:3306/x\n");
        MailrunConfig c = ConfigLoader.load(Optional.of(f), Map.of("MAILRUN_TICK_INTERVAL", "PT2M"));
        assertThat(c.tick().interval()).isEqualTo(Duration.ofMinutes(2));
        assertThat(c.db().url()).contains("jdbc:mysql://a:3306/x");
    }

    @Test
    void an_unknown_key_names_the_key_and_the_file() throws Exception {
        Path f = file("db.urll=jdbc:mysql://a/x\n");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.of(f), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessage("unknown configuration key db.urll in " + f + " (see mailrun.properties.example)");
    }

    @Test
    void an_invalid_value_names_the_key_and_the_value() throws Exception {
        assertThatThrownBy(() -> ConfigLoader.load(Optional.of(file("db.pool-size=lots\n")), Map.of()))
                .hasMessage("configuration key db.pool-size: must be a whole number, got 'lots'");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.of(file("")), Map.of("MAILRUN_DB_URL", "nonsense")))
                .hasMessage("configuration key db.url: must start with jdbc:mysql:// (or jdbc:mysql:replication://, jdbc:mysql:loadbalance://, jdbc:mysql+srv://), got 'nonsense'");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.of(file("tick.interval=soon\n")), Map.of()))
                .hasMessageContaining("tick.interval").hasMessageContaining("'soon'");
    }

    @Test
    void a_secret_is_never_echoed_in_an_error_or_in_to_string() throws Exception {
        RawConfig raw = ConfigLoader.raw(Optional.of(file("db.password=hunter2-secret\n")), Map.of());
        assertThatThrownBy(() -> raw.integer("db.password", 0, 1))
                .hasMessageNotContaining("hunter2").hasMessageContaining("secret value not shown");
        MailrunConfig c = ConfigLoader.load(Optional.of(file("db.password=hunter2-secret\n")), Map.of());
        assertThat(c.toString()).doesNotContain("hunter2");
        assertThat(c.db().password()).isEqualTo("hunter2-secret");
    }

    @Test
    void a_missing_explicit_file_is_an_error() {
        Path missing = dir.resolve("nope.properties");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.of(missing), Map.of()))
                .hasMessage("configuration file " + missing + " does not exist");
    }

    @Test
    void the_shipped_example_lists_every_key_with_its_default() throws Exception {
        String example = Files.readString(Path.of("mailrun.properties.example"));
        Properties commentedOut = new Properties();
        for (String line : example.lines().toList()) {
            if (line.startsWith("#") && line.contains("=") && !line.startsWith("# ")) {
                commentedOut.load(new java.io.StringReader(line.substring(1)));
            }
        }
        for (ConfigKey key : ConfigKeys.all()) {
            assertThat(commentedOut.getProperty(key.name())).as(key.name()).isEqualTo(key.defaultValue());
        }
        assertThat(commentedOut.stringPropertyNames()).hasSize(ConfigKeys.all().size());
    }

    private MailrunConfig loadWith(String key, String value) {
        return ConfigLoader.load(Optional.empty(), Map.of(ConfigKeys.find(key).orElseThrow().envName(), value));
    }

    @Test
    void durations_that_overflow_or_exceed_their_range_are_configuration_errors_naming_the_key() {
        for (String v : new String[] {"99999999999999999d", "9223372036854775807ms", "99999999999999999999999ms",
                "PT9999999999999999999H", "2d", "PT-5M", "0s"}) {
            assertThatThrownBy(() -> loadWith("tick.interval", v)).as(v).isInstanceOf(ConfigException.class)
                    .hasMessage("configuration key tick.interval: must be 1s–1d, got '" + v + "'");
        }
        assertThat(loadWith("tick.interval", "1d").tick().interval()).isEqualTo(Duration.ofDays(1));
        assertThatThrownBy(() -> loadWith("tick.run-history", "1h"))
                .hasMessage("configuration key tick.run-history: must be 0s or 2h–3650d, got '1h'");
        assertThat(loadWith("tick.run-history", "0s").tick().runHistory()).isZero();
        assertThatThrownBy(() -> loadWith("smtp.read-timeout", "11m"))
                .hasMessage("configuration key smtp.read-timeout: must be 100ms–10m, got '11m'");
        assertThatThrownBy(() -> loadWith("bounce.interval", "9223372036854775807ms"))
                .hasMessageStartingWith("configuration key bounce.interval: must be 10s–1d");
        assertThatThrownBy(() -> loadWith("send.retry-base", "99999999999999999d"))
                .hasMessageStartingWith("configuration key send.retry-base: must be 1s–1d");
    }

    @Test
    void numbers_outside_their_range_name_the_key_and_the_range() {
        assertThatThrownBy(() -> loadWith("db.pool-size", "99999999999"))
                .hasMessage("configuration key db.pool-size: must be between 2 and 500, got '99999999999'");
        assertThatThrownBy(() -> loadWith("smtp.rate", "1e-300"))
                .hasMessage("configuration key smtp.rate: must be 0 or 0.01–100000, got '1e-300'");
        assertThatThrownBy(() -> loadWith("smtp.rate", "NaN")).hasMessageStartingWith("configuration key smtp.rate:");
        assertThat(loadWith("smtp.rate", "0").relays().first().rate()).isZero();
        assertThatThrownBy(() -> loadWith("http.port", "0"))
                .hasMessage("configuration key http.port: must be between 1 and 65535, got '0'");
    }

    @Test
    void http_bind_must_be_an_ip_address_or_a_host_name() {
        assertThatThrownBy(() -> loadWith("http.bind", "999.1.1.1"))
                .hasMessage("configuration key http.bind: is not an IPv4 address (four numbers 0-255), got '999.1.1.1'");
        assertThatThrownBy(() -> loadWith("http.bind", "1.2.3")).hasMessageStartingWith("configuration key http.bind:");
        assertThatThrownBy(() -> loadWith("http.bind", "::zz")).hasMessageStartingWith("configuration key http.bind:");
        assertThatThrownBy(() -> loadWith("http.bind", "my host")).hasMessageStartingWith("configuration key http.bind:");
        for (String ok : new String[] {"0.0.0.0", "127.0.0.1", "::1", "[::1]", "localhost", "mail-1.example.com"}) {
            assertThat(loadWith("http.bind", ok).httpBind()).as(ok).isEqualTo(ok);
        }
    }

    @Test
    void a_value_with_a_trailing_comment_is_refused_with_one_line_saying_properties_files_have_none() throws Exception {
        String secret = "a-test-secret-that-is-long-enough-0123456789";
        assertThatThrownBy(() -> ConfigLoader.load(Optional.of(file("unsubscribe.secret=" + secret + "   # openssl rand -base64 33\n"
                + "unsubscribe.base-url=https://mail.example.com\n")), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessage("configuration key unsubscribe.secret: contains whitespace followed by '#', got (secret value not shown):"
                        + " a properties file has no trailing comments (the text would be part of the value);"
                        + " put a comment on a line of its own")
                .hasMessageNotContaining(secret);
        assertThatThrownBy(() -> ConfigLoader.load(Optional.of(file("http.port=8080   # worker serves /u/<token>\n")), Map.of()))
                .hasMessageStartingWith("configuration key http.port: contains whitespace followed by '#',"
                        + " got '8080   # worker serves /u/<token>': a properties file has no trailing comments");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.of(file("")), Map.of("MAILRUN_SMTP_HELO_NAME", "mx.example.com\t#main")))
                .hasMessageStartingWith("configuration key smtp.helo-name: contains whitespace followed by '#'");

        MailrunConfig c = ConfigLoader.load(Optional.of(file("db.password=pass#word\n# a comment line\ndb.user=mailer\n")), Map.of());
        assertThat(c.db().password()).as("a '#' inside a value is no comment").isEqualTo("pass#word");
        assertThat(c.db().user()).isEqualTo("mailer");
    }

    @Test
    void a_secret_is_kept_verbatim_and_one_with_whitespace_at_either_end_is_refused_without_showing_it() throws Exception {
        assertThatThrownBy(() -> ConfigLoader.load(Optional.of(file("db.password=hunter2-secret \n")), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessage("configuration key db.password: must not begin or end with whitespace (secret value not shown)");
        assertThatThrownBy(() -> loadWith("smtp.password", " hunter2-secret"))
                .hasMessageStartingWith("configuration key smtp.password: must not begin").hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> loadWith("unsubscribe.secret", "a-test-secret-that-is-long-enough-0123456789\t"))
                .hasMessageStartingWith("configuration key unsubscribe.secret: must not begin");

        MailrunConfig c = ConfigLoader.load(Optional.of(file("db.password=pass word\n")), Map.of());
        assertThat(c.db().password()).isEqualTo("pass word");
        assertThat(loadWith("db.user", " mailer ").db().user()).as("other values are trimmed").isEqualTo("mailer");
    }

    private MailrunConfig loadWith(Map<String, String> values) {
        Map<String, String> env = new java.util.HashMap<>();
        values.forEach((k, v) -> env.put(ConfigKeys.find(k).orElseThrow().envName(), v));
        return ConfigLoader.load(Optional.empty(), env);
    }

    @Test
    void every_provider_is_off_by_default_and_on_by_its_own_keys() {
        assertThat(loadWith(Map.of()).feedback().providers()).isEmpty();
        assertThat(loadWith(Map.of()).relays().first().smtp().messageTags().providers()).isEmpty();

        MailrunConfig c = loadWith(Map.of("http.port", "8080", "feedback.ses.enabled", "true",
                "feedback.ses.topic-arns", "arn:aws:sns:us-east-1:123456789012:ses-feedback, arn:aws:sns:eu-west-1:123456789012:other",
                "feedback.ses.configuration-set", "mailrun",
                "feedback.mailgun.signing-key", "key-0123456789abcdef0123456789abcdef"));

        assertThat(c.feedback().providers()).containsExactlyInAnyOrder(
                dev.mailrun.mail.feedback.Provider.SES, dev.mailrun.mail.feedback.Provider.MAILGUN);
        assertThat(c.feedback().ses().orElseThrow().topicArns()).hasSize(2);
        assertThat(c.relays().first().smtp().messageTags()).isEqualTo(c.feedback().messageTags());
        assertThat(c.relays().first().smtp().messageTags().sesConfigurationSet()).contains("mailrun");
        assertThat(c.toString()).doesNotContain("key-0123456789abcdef");
    }

    @Test
    void feedback_settings_that_cannot_work_are_one_line_errors_naming_the_key_and_never_the_secret() {
        assertThatThrownBy(() -> loadWith(Map.of("feedback.ses.topic-arns", "arn:aws:sns:us-east-1:123456789012:x")))
                .hasMessage("configuration key feedback.ses.topic-arns: is set but feedback.ses.enabled is false");
        assertThatThrownBy(() -> loadWith(Map.of("feedback.ses.auto-confirm", "true")))
                .hasMessage("configuration key feedback.ses.auto-confirm: is true but feedback.ses.enabled is false");
        assertThatThrownBy(() -> loadWith(Map.of("http.port", "8080", "feedback.ses.enabled", "true", "feedback.ses.topic-arns", "ses-feedback")))
                .hasMessageStartingWith("configuration key feedback.ses.topic-arns: 'ses-feedback' is not an SNS topic ARN");
        assertThatThrownBy(() -> loadWith(Map.of("http.port", "8080", "feedback.ses.enabled", "true",
                "feedback.ses.configuration-set", "my set")))
                .hasMessageStartingWith("configuration key feedback.ses.configuration-set: must be 1-64 letters");
        assertThatThrownBy(() -> loadWith(Map.of("http.port", "8080", "feedback.postmark.user", "hooks")))
                .hasMessage("configuration key feedback.postmark.password: must be set when feedback.postmark.user is");
        assertThatThrownBy(() -> loadWith(Map.of("http.port", "8080", "feedback.postmark.user", "hooks",
                "feedback.postmark.password", "hunter2-short")))
                .hasMessage("configuration key feedback.postmark.password: must be at least 16 characters without control characters (value not shown)")
                .hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> loadWith(Map.of("http.port", "8080", "feedback.sendgrid.public-key", "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcD")))
                .hasMessageStartingWith("configuration key feedback.sendgrid.public-key: is not an ECDSA P-256 public key");
        assertThatThrownBy(() -> loadWith(Map.of("http.port", "8080", "feedback.mailgun.signing-key", "hunter2")))
                .hasMessageStartingWith("configuration key feedback.mailgun.signing-key: must be at least 16 characters")
                .hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> loadWith(Map.of("feedback.mailgun.signing-key", "key-0123456789abcdef0123456789abcdef")))
                .hasMessage("configuration key http.port: must be set to receive the webhooks of mailgun (feedback.*)");
        assertThatThrownBy(() -> loadWith(Map.of("bounce.complaint-pause-rate", "0")))
                .hasMessage("configuration key bounce.complaint-pause-rate: must be 0.0001–1, got '0'");
    }

    @Test
    void domain_groups_come_shipped_without_caps_and_an_operators_own_group_is_read_from_the_file() throws Exception {
        var shipped = ConfigLoader.load(Optional.empty(), Map.of()).send().domainGroups();
        assertThat(shipped.named("gmail").orElseThrow().domains()).containsExactly("gmail.com", "googlemail.com");
        assertThat(shipped.groups()).allSatisfy(g -> assertThat(g.rate()).isZero());

        MailrunConfig c = ConfigLoader.load(Optional.of(file("""
                policy.domain.gmail.rate=300/min
                policy.domain.corp.domains=Corp.example, mail.corp.example
                policy.domain.corp.rate=2/s
                """)), Map.of());
        assertThat(c.send().domainGroups().named("gmail").orElseThrow().rate()).isEqualTo(5.0);
        assertThat(c.send().domainGroups().named("corp").orElseThrow().domains()).containsExactly("corp.example", "mail.corp.example");
        assertThat(c.send().domainGroups().named("corp").orElseThrow().rate()).isEqualTo(2.0);
        assertThat(ConfigLoader.load(Optional.empty(), Map.of("MAILRUN_POLICY_DOMAIN_YAHOO_RATE", "1/s")).send()
                .domainGroups().named("yahoo").orElseThrow().rate()).isEqualTo(1.0);
    }

    @Test
    void a_domain_group_that_cannot_work_is_a_one_line_error_naming_the_key() throws Exception {
        assertThatThrownBy(() -> ConfigLoader.load(Optional.of(file("policy.domain.gmail.rate=5\n")), Map.of()))
                .hasMessage("configuration key policy.domain.gmail.rate: must be a rate such as 5/s or 300/min, got '5'");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.of(file("policy.domain.gmail.rate=5/week\n")), Map.of()))
                .hasMessage("configuration key policy.domain.gmail.rate: must be a rate per s, min or h (5/s, 300/min), got '5/week'");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.of(file("policy.domain.gmail.rate=1/h\n")), Map.of()))
                .hasMessage("configuration key policy.domain.gmail.rate: must be between 0.01/s (36/h) and 100000/s, got '1/h'");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.of(file("policy.domain.corp.rate=5/s\n")), Map.of()))
                .hasMessage("configuration key policy.domain.corp.domains: must be set when policy.domain.corp.rate is");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.of(file("policy.domain.corp.domains=gmail.com\n")), Map.of()))
                .hasMessage("configuration key policy.domain.gmail.domains: gmail.com is also in the corp group (a domain is paced by one group)");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.of(file("policy.domain.corp.domains=not a domain\n")), Map.of()))
                .hasMessage("configuration key policy.domain.corp.domains: domain group corp: 'not a domain' is not a lower-case domain name");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.of(file("policy.domain.Corp_1.rate=5/s\n")), Map.of()))
                .hasMessageStartingWith("unknown configuration key policy.domain.Corp_1.rate in");
    }
}
