package dev.mailrun.app.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The one place that reads configuration: defaults, then the properties file, then environment
 * variables ({@code db.url} → {@code MAILRUN_DB_URL}). Unknown keys in the file are errors, so a
 * typo cannot silently fall back to a default.
 */
public final class ConfigLoader {

    public static final Path DEFAULT_FILE = Path.of("mailrun.properties");

    private ConfigLoader() {}

    /**
     * @param explicitFile from {@code --config}: must exist. Without it {@code ./mailrun.properties}
     *                     is read when present.
     */
    public static MailrunConfig load(Optional<Path> explicitFile, Map<String, String> env) {
        return MailrunConfig.from(raw(explicitFile, env));
    }

    public static RawConfig raw(Optional<Path> explicitFile, Map<String, String> env) {
        Map<String, String> values = new LinkedHashMap<>();
        ConfigKeys.all().forEach(k -> values.put(k.name(), k.defaultValue()));

        Optional<Path> file = explicitFile.or(() -> Files.exists(DEFAULT_FILE) ? Optional.of(DEFAULT_FILE) : Optional.empty());
        file.ifPresent(f -> readFile(f, explicitFile.isPresent()).forEach((k, v) -> {
            if (k.startsWith(ConfigKeys.GROUP_PREFIX) && ConfigKeys.find(k).isEmpty()) {
                throw new ConfigException("unknown configuration key " + k + " in " + f
                        + " (a domain group's keys are policy.domain.<name>.domains and policy.domain.<name>.rate,"
                        + " the name 1-40 lower-case letters, digits or '-')");
            }
            if (ConfigKeys.find(k).isEmpty()) {
                throw new ConfigException("unknown configuration key " + k + " in " + f + " (see mailrun.properties.example)");
            }
            values.put(k, v);
        }));
        for (ConfigKey key : ConfigKeys.all()) {
            String v = env.get(key.envName());
            if (v != null) {
                values.put(key.name(), v);
            }
        }
        return new RawConfig(values);
    }

    private static Map<String, String> readFile(Path file, boolean explicit) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (NoSuchFileException e) {
            throw new ConfigException("configuration file " + file + " does not exist");
        } catch (IOException | IllegalArgumentException e) {
            throw new ConfigException("configuration file " + file + " cannot be read: " + e.getMessage());
        }
        Map<String, String> m = new LinkedHashMap<>();
        p.stringPropertyNames().forEach(k -> m.put(k.trim(), p.getProperty(k)));
        return m;
    }
}
