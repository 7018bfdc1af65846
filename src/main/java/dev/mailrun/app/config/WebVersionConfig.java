package dev.mailrun.app.config;

import java.time.Duration;

/**
 * {@code webversion.*}: how long a message's web version link works, and whether its page shows the
 * recipient's own fields (docs/CONTENT.md, "Web version").
 *
 * @param ttl      how long a link works after its message was built; carried in the signed link,
 *                 so a change applies to the messages built after it
 * @param personal whether the page of a campaign without a web version setting of its own shows the
 *                 recipient's fields; read when the page is served, so switching it off hides them behind
 *                 every such campaign's link already sent
 */
public record WebVersionConfig(Duration ttl, boolean personal) {

    /** The keys' defaults: a link works as long as opens and clicks are kept by default, and shows the recipient's message. */
    public static final WebVersionConfig DEFAULTS = new WebVersionConfig(Duration.ofDays(180), true);

    public WebVersionConfig {
        if (ttl.isNegative() || ttl.isZero()) {
            throw ConfigException.invalid("webversion.ttl", "must be positive, got " + ttl);
        }
    }

    static WebVersionConfig from(RawConfig raw) {
        return new WebVersionConfig(raw.duration("webversion.ttl"), raw.bool("webversion.personal"));
    }
}
