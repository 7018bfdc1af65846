package dev.mailrun.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/CONFIGURATION.md's key reference and mailrun.properties.example are what {@link ConfigKeys}
 * says, rendered by {@link ConfigReference}: a key added, a default or a description changed in the
 * code fails here until the committed files are replaced by the rendered ones, which this test
 * leaves in target/config-reference/.
 */
class ConfigReferenceTest {

    private static final Path RENDERED = Path.of("target", "config-reference");

    @TempDir
    Path dir;

    @Test
    void docs_configuration_holds_the_key_reference_that_config_keys_renders() throws IOException {
        Path committed = Path.of("docs", "CONFIGURATION.md");
        String text = Files.readString(committed);
        sameAsRendered(committed, text, ConfigReference.withKeyReference(text));
    }

    @Test
    void the_properties_example_is_what_config_keys_renders() throws IOException {
        Path committed = Path.of("mailrun.properties.example");
        sameAsRendered(committed, Files.readString(committed), ConfigReference.example());
    }

    @Test
    void the_reference_lists_every_key_with_its_default_and_no_other() {
        Map<String, String> rows = referenceRows();
        for (ConfigKey key : ConfigKeys.all()) {
            String def = key.defaultValue().isEmpty() ? "(empty)" : "`" + key.defaultValue() + "`";
            assertThat(rows.get(key.name())).as("reference row of " + key.name()).startsWith("| `" + key.name() + "` | " + def + " |");
        }
        assertThat(rows.keySet()).allSatisfy(n -> assertThat(ConfigKeys.find(n)).as(n).isPresent());
        assertThat(rows).hasSize(ConfigKeys.all().size());
    }

    @Test
    void every_numeric_and_duration_key_states_its_range_in_the_reference_and_the_example() {
        Map<String, String> rows = referenceRows();
        List<String> example = ConfigReference.example().lines().toList();
        for (ConfigKey key : ConfigKeys.all()) {
            String def = key.defaultValue();
            boolean numeric = def.matches("\\d+(\\.\\d+)?") || def.matches("\\d+(ms|s|m|h|d)");
            if (numeric || key.name().equals("http.port")) {
                assertThat(key.range()).as(key.name() + " has a range").isPresent();
            }
            if (key.range().isEmpty()) {
                continue;
            }
            String range = key.range().get().text();
            assertThat(rows.get(key.name())).as("reference row of " + key.name()).contains("| " + range + " |");
            assertThat(commentAbove(example, "#" + key.name() + "=" + def)).as("example comment of " + key.name())
                    .contains("Range: " + range + ".");
        }
    }

    /** The reference's table rows by the key they name, each key once. */
    private static Map<String, String> referenceRows() {
        return ConfigReference.keyReference().lines().filter(l -> l.startsWith("| `"))
                .collect(Collectors.toMap(l -> l.substring(3, l.indexOf('`', 3)), l -> l));
    }

    @Test
    void every_key_the_example_shows_set_to_its_default_loads() throws IOException {
        String uncommented = ConfigReference.example().lines()
                .filter(l -> l.startsWith("#") && !l.startsWith("# ") && !l.contains("<name>"))
                .map(l -> l.substring(1)).collect(Collectors.joining("\n"));
        Path file = Files.writeString(dir.resolve("mailrun.properties"), uncommented);

        MailrunConfig loaded = ConfigLoader.load(Optional.of(file), Map.of());

        assertThat(loaded.toString()).isEqualTo(ConfigLoader.load(Optional.empty(), Map.of()).toString());
    }

    @Test
    void the_reference_shows_key_names_as_code_and_escapes_what_a_table_would_read() {
        String reference = ConfigReference.keyReference();
        assertThat(reference).contains("| `smtp.tls` | `starttls-optional` |  | `MAILRUN_SMTP_TLS` | none \\| starttls-optional \\|");
        assertThat(reference).contains("| `policy.domain.<name>.rate` | (empty) | 0.01/s–100000/s | none: the file only |");
        assertThat(reference).contains("`MAILRUN_SMTP_<NAME>_HOST`").contains("SMTP host of relay `<name>`");
        assertThat(reference).contains("[MAIL.md](MAIL.md)").doesNotContain("docs/MAIL.md");
        assertThat(reference).contains("(`smtp.max-connections`; ");
    }

    /** The comment lines right above {@code keyLine}, joined. */
    private static String commentAbove(List<String> example, String keyLine) {
        int line = example.indexOf(keyLine);
        assertThat(line).as(keyLine).isPositive();
        int first = line;
        while (example.get(first - 1).startsWith("# ") && !example.get(first - 1).startsWith("# == ")) {
            first--;
        }
        return example.subList(first, line).stream().map(l -> l.substring(2)).collect(Collectors.joining(" "));
    }

    private static void sameAsRendered(Path committed, String text, String rendered) throws IOException {
        if (text.equals(rendered)) {
            return;
        }
        Files.createDirectories(RENDERED);
        Path fresh = RENDERED.resolve(committed.getFileName());
        Files.writeString(fresh, rendered);
        List<String> have = text.lines().toList();
        List<String> want = rendered.lines().toList();
        int at = 0;
        while (at < have.size() && at < want.size() && have.get(at).equals(want.get(at))) {
            at++;
        }
        fail(committed + " is not what ConfigKeys says (first difference at line " + (at + 1) + ": "
                + (at >= want.size() ? "expected the end of the file"
                        : want.get(at).isEmpty() ? "expected an empty line" : "expected '" + want.get(at) + "'") + "). "
                + "The rendered file is " + fresh + "; check it and copy it: cp " + fresh + " " + committed);
    }
}
