package dev.mailrun.app.config;

import dev.mailrun.events.EventsSettings;
import dev.mailrun.events.delivery.Endpoint;
import dev.mailrun.events.delivery.SigningSecret;
import dev.mailrun.events.delivery.TypeFilter;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;

/**
 * Events out ({@code events.*}): the endpoints {@code events.endpoints} names, each from its
 * {@code events.<name>.*} keys, checked here so that every error names the key that is wrong (a
 * secret's value is never quoted).
 */
final class EventsConfig {

    private EventsConfig() {}

    static EventsSettings from(RawConfig raw) {
        List<Endpoint> endpoints = new ArrayList<>();
        for (String name : NameList.endpoints(raw.string("events.endpoints"))) {
            endpoints.add(endpoint(raw, name));
        }
        try {
            return new EventsSettings(endpoints, raw.bool("events.include-fields"), raw.duration("events.poll"),
                    raw.duration("events.retention"));
        } catch (IllegalArgumentException e) {
            throw new ConfigException("configuration key " + e.getMessage());
        }
    }

    private static Endpoint endpoint(RawConfig raw, String name) {
        String urlKey = key(name, "url");
        URI url;
        try {
            url = new URI(raw.required(urlKey));
        } catch (URISyntaxException e) {
            throw ConfigException.invalid(urlKey, "is not a URL: " + e.getReason());
        }
        SigningSecret secret;
        try {
            secret = SigningSecret.parse(raw.required(key(name, "secret")));
        } catch (IllegalArgumentException e) {
            throw ConfigException.invalid(key(name, "secret"), e.getMessage() + " (secret value not shown)");
        }
        TypeFilter types;
        try {
            types = TypeFilter.parse(raw.string(key(name, "types")));
        } catch (IllegalArgumentException e) {
            throw ConfigException.invalid(key(name, "types"), e.getMessage());
        }
        Endpoint endpoint;
        try {
            endpoint = new Endpoint(name, url, secret, types, raw.integer(key(name, "batch")), raw.duration(key(name, "timeout")),
                    raw.duration(key(name, "disable-after")), raw.bool(key(name, "allow-http")),
                    raw.bool(key(name, "allow-private-addresses")));
        } catch (IllegalArgumentException e) {
            throw new ConfigException("configuration key " + e.getMessage());
        }
        endpoint.internalOnly().ifPresent(addresses -> {
            throw ConfigException.invalid(urlKey, "its host resolves only to internal addresses (" + addresses
                    + "), which delivery refuses: use a public address, or set " + key(name, "allow-private-addresses")
                    + "=true for a receiver on this machine or network");
        });
        return endpoint;
    }

    private static String key(String name, String suffix) {
        return ConfigKeys.endpointKey(name, suffix);
    }
}
