package dev.mailrun.app.config;

import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.campaign.send.route.Relay;
import dev.mailrun.campaign.send.route.Relays;
import dev.mailrun.mail.Secret;
import dev.mailrun.mail.feedback.MessageTags;
import dev.mailrun.mail.smtp.SmtpSettings;
import dev.mailrun.mail.smtp.TlsMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The relays and the default route: {@code smtp.relays} names them in route order; {@code default} is
 * the relay of the single-relay keys ({@code smtp.host}, …), every other name has its own
 * {@code smtp.<name>.*} keys and shares the timeouts. Without {@code smtp.relays}, {@code default}
 * alone, as before there were several.
 */
final class RelaysConfig {

    private RelaysConfig() {}

    static Relays from(RawConfig raw, SmtpSettings defaultRelay, MessageTags tags) {
        List<String> names = NameList.relays(raw.string("smtp.relays"));
        if (names.isEmpty()) {
            return Relays.single(Relays.DEFAULT, defaultRelay);
        }
        Map<String, Relay> relays = new LinkedHashMap<>();
        List<RelayRoute.Leg> legs = new ArrayList<>();
        for (String name : names) {
            if (name.equals(Relays.DEFAULT)) {
                relays.put(name, new Relay(name, defaultRelay));
                legs.add(new RelayRoute.Leg(name, raw.integer("smtp.weight")));
            } else {
                SmtpSettings smtp = named(raw, name, defaultRelay).withMessageTags(tags);
                relays.put(name, new Relay(name, smtp));
                legs.add(new RelayRoute.Leg(name, raw.integer(ConfigKeys.relayKey(name, "weight"))));
            }
        }
        return new Relays(relays, new RelayRoute(legs));
    }

    private static SmtpSettings named(RawConfig raw, String name, SmtpSettings defaults) {
        String host = raw.required(key(name, "host"));
        int port = raw.integer(key(name, "port"));
        TlsMode tls = raw.choice(key(name, "tls"), TlsMode.class);
        Optional<String> user = raw.optional(key(name, "username"));
        Optional<Secret> password = raw.optional(key(name, "password")).map(Secret::of);
        if (user.isPresent() && password.isEmpty()) {
            throw ConfigException.invalid(key(name, "password"), "must be set when " + key(name, "username") + " is set");
        }
        String helo = raw.optional(key(name, "helo-name")).orElse(defaults.heloName());
        int connections = raw.integer(key(name, "connections"));
        double rate = raw.decimal(key(name, "rate"));
        try {
            return new SmtpSettings(host, port, tls, user, user.isPresent() ? password : Optional.empty(),
                    defaults.connectTimeout(), defaults.readTimeout(), defaults.writeTimeout(), helo, connections, rate)
                    .withConnections(connections, raw.integer(key(name, "max-connections")))
                    .withChunking(raw.bool(key(name, "chunking")));
        } catch (IllegalArgumentException e) {
            // SmtpSettings names the single-relay keys; the operator wrote this relay's.
            throw new ConfigException("configuration: relay " + name + ": "
                    + e.getMessage().replace("smtp.", "smtp." + name + "."));
        }
    }

    private static String key(String relay, String suffix) {
        return ConfigKeys.relayKey(relay, suffix);
    }
}
