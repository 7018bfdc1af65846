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
                .hasMessage("configuration key db.url: must start with jdbc:mysql://, got 'nonsense'");
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
}
