package dev.mailrun.app.config;

import java.nio.file.Files;
import java.nio.file.Path;
import dev.mailrun.campaign.send.route.Relays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.Optional;

/**
 * The one place that reads configuration: defaults, then the properties file, then environment
 * variables ({@code db.url} → {@code MAILRUN_DB_URL}), and {@code HOSTNAME} (for the worker's name
 * on the task rows where the machine's name cannot be resolved). Unknown keys in the file are errors, and so
 * are variables that look like keys but name none ({@link EnvironmentKeys}), so a typo cannot
 * silently fall back to a default. Every key's value is checked by its kind at every start
 * ({@link ConfigValues}), whatever the command; the file is read by {@link PropertiesFile}.
 */
public final class ConfigLoader {

    static final Path DEFAULT_FILE = Path.of("mailrun.properties");

    private ConfigLoader() {}

    /**
     * @param explicitFile from {@code --config}: must exist. Without it {@code ./mailrun.properties}
     *                     is read when present.
     */
    public static MailrunConfig load(Optional<Path> explicitFile, Map<String, String> env) {
        return MailrunConfig.from(raw(explicitFile, env), env.getOrDefault("HOSTNAME", "unknown-host"));
    }

    static RawConfig raw(Optional<Path> explicitFile, Map<String, String> env) {
        Map<String, String> values = new LinkedHashMap<>();
        ConfigKeys.all().stream().filter(k -> !ConfigKeys.isTemplate(k)).forEach(k -> values.put(k.name(), k.defaultValue()));

        Optional<Path> file = explicitFile.or(() -> Files.exists(DEFAULT_FILE) ? Optional.of(DEFAULT_FILE) : Optional.empty());
        Map<String, Path> fromFile = new LinkedHashMap<>();
        file.ifPresent(f -> readFile(f, explicitFile.isPresent()).forEach((k, v) -> {
            if (k.startsWith(ConfigKeys.GROUP_PREFIX) && ConfigKeys.find(k).isEmpty()) {
                throw new ConfigException("unknown configuration key " + k + " in " + f
                        + " (a domain group's keys are policy.domain.<name>.domains and policy.domain.<name>.rate,"
                        + " the name 1-40 lower-case letters, digits or '-')");
            }
            if (ConfigKeys.find(k).isEmpty() || k.contains(ConfigKeys.RELAY_PLACEHOLDER)) {
                throw new ConfigException("unknown configuration key " + k + " in " + f + " (see mailrun.properties.example)");
            }
            values.put(k, v);
            fromFile.put(k, f);
        }));
        for (ConfigKey key : ConfigKeys.all()) {
            String v = env.get(key.envName());
            if (v != null && !ConfigKeys.isTemplate(key)) {
                values.put(key.name(), v);
            }
        }
        Set<String> endpointKeys = EndpointNames.keys(values, env);
        relayKeys(values, fromFile, env, endpointKeys);
        EnvironmentKeys.check(env, NameList.relays(values.get("smtp.relays")), NameList.endpoints(values.get("events.endpoints")));
        RawConfig raw = new RawConfig(values);
        // Every key, whether or not this command or these settings read it: a typo fails every start alike.
        ConfigValues.checkEvery(raw);
        return raw;
    }

    /**
     * The keys of the relays {@code smtp.relays} names: their defaults, then their environment
     * variables ({@code smtp.backup.host} → {@code MAILRUN_SMTP_BACKUP_HOST}). A per-relay key of a
     * relay that {@code smtp.relays} does not name is an error, like any unknown key.
     */
    private static void relayKeys(Map<String, String> values, Map<String, Path> fromFile, Map<String, String> env,
                                  Set<String> endpointKeys) {
        List<String> relays = NameList.relays(values.get("smtp.relays"));
        Set<String> known = new HashSet<>();
        for (String relay : relays) {
            if (relay.equals(Relays.DEFAULT)) {
                continue;
            }
            for (String suffix : ConfigKeys.relaySuffixes()) {
                String name = ConfigKeys.relayKey(relay, suffix);
                known.add(name);
                ConfigKeys.defaultThenEnv(values, env, name);
            }
        }
        for (Map.Entry<String, Path> e : fromFile.entrySet()) {
            if (e.getKey().startsWith("events.") && !endpointKeys.contains(e.getKey())
                    && ConfigKeys.all().stream().noneMatch(k -> k.name().equals(e.getKey()))) {
                List<String> endpoints = NameList.endpoints(values.get("events.endpoints"));
                throw new ConfigException("configuration key " + e.getKey() + " in " + e.getValue()
                        + " belongs to no endpoint named in events.endpoints (" + (endpoints.isEmpty() ? "empty"
                        : String.join(",", endpoints)) + ")");
            }
            if (!ConfigKeys.all().stream().anyMatch(k -> k.name().equals(e.getKey())) && !known.contains(e.getKey())
                    && !endpointKeys.contains(e.getKey()) && ConfigKeys.groupOf(e.getKey()).isEmpty()) {
                throw new ConfigException("configuration key " + e.getKey() + " in " + e.getValue()
                        + " belongs to no relay named in smtp.relays (" + (relays.isEmpty() ? "empty" : String.join(",", relays)) + ")");
            }
        }
    }

    private static Map<String, String> readFile(Path file, boolean explicit) {
        return PropertiesFile.read(file);
    }
}
