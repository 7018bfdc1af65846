package dev.mailrun.app.config;

import dev.mailrun.campaign.tracking.MachineList;
import dev.mailrun.campaign.tracking.TrackingSettings;
import dev.mailrun.http.server.TrustedProxies;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code tracking.*}: empty settings when tracking.enabled is off (the other keys are then not read).
 *
 * @param machines       the image proxies and scanners the classifier knows: tracking.machines-file, or the shipped list
 * @param trustedProxies the peers whose X-Forwarded-For names the client (tracking.trusted-proxies; none by default)
 */
public record TrackingConfig(Optional<TrackingSettings> settings, Optional<MachineList> machines,
                             TrustedProxies trustedProxies) {

    public static final TrackingConfig OFF = new TrackingConfig(Optional.empty(), Optional.empty(), TrustedProxies.NONE);

    public boolean enabled() {
        return settings.isPresent();
    }

    /** @param httpPort the public listener's port, which serves the tracking endpoints */
    static TrackingConfig from(RawConfig raw, Optional<Integer> httpPort) {
        if (!raw.bool("tracking.enabled")) {
            return OFF;
        }
        if (httpPort.isEmpty()) {
            // Links to endpoints nobody serves would send every reader to an error page.
            throw ConfigException.invalid("tracking.enabled", "needs http.port: the public listener serves <base>/c/ and <base>/o/");
        }
        String base = raw.optional("tracking.base-url").orElseThrow(() -> ConfigException.invalid("tracking.base-url",
                "must be set when tracking.enabled=true: the https URL of the tracking domain (it is never defaulted to the From domain)"));
        Set<String> exclude = raw.optional("tracking.exclude-domains")
                .map(v -> Arrays.stream(v.split(",")).map(String::strip).filter(d -> !d.isEmpty()).collect(Collectors.toSet()))
                .orElse(Set.of());
        TrackingSettings settings;
        try {
            settings = new TrackingSettings(URI.create(base.strip()), raw.bool("tracking.per-recipient"),
                    raw.duration("tracking.retention"), raw.duration("tracking.scanner-window"), exclude,
                    raw.integer("tracking.buffer"));
        } catch (IllegalArgumentException e) {
            throw ConfigException.invalid("tracking.base-url", e.getMessage());
        }
        Optional<String> file = raw.optional("tracking.machines-file");
        MachineList machines;
        if (file.isEmpty()) {
            machines = MachineList.shipped();
        } else {
            try {
                machines = MachineList.read(Path.of(file.get()));
            } catch (IOException e) {
                throw ConfigException.invalid("tracking.machines-file", "cannot be read: " + e.getMessage());
            } catch (IllegalArgumentException e) {
                throw ConfigException.invalid("tracking.machines-file", e.getMessage());
            }
        }
        TrustedProxies proxies;
        try {
            proxies = raw.optional("tracking.trusted-proxies").map(TrustedProxies::parse).orElse(TrustedProxies.NONE);
        } catch (IllegalArgumentException e) {
            throw ConfigException.invalid("tracking.trusted-proxies", e.getMessage());
        }
        return new TrackingConfig(Optional.of(settings), Optional.of(machines), proxies);
    }
}
