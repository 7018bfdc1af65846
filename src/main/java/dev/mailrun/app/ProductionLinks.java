package dev.mailrun.app;

import dev.mailrun.app.config.UnsubscribeConfig;
import dev.mailrun.campaign.send.deliver.UnsubscribeLinks;
import dev.mailrun.campaign.unsubscribe.PreferenceTokens;
import dev.mailrun.campaign.unsubscribe.ReturnPaths;
import dev.mailrun.campaign.unsubscribe.SigningKey;
import dev.mailrun.campaign.unsubscribe.UnsubscribeTokens;
import dev.mailrun.campaign.unsubscribe.WebVersionTokens;
import java.net.URI;
import java.util.Optional;

/**
 * Signed unsubscribe, web version and preference centre links on the configured public URL, a mailto (when a mailbox
 * reads the requests) and, when bounce processing is configured, a signed return path so bounces map
 * back to recipients.
 */
public final class ProductionLinks implements UnsubscribeLinks {

    /** The local part of the default mailto address, {@code unsubscribe@<From domain>}. */
    static final String DEFAULT_MAILTO_LOCAL_PART = "unsubscribe";

    private final UnsubscribeTokens tokens;
    private final WebVersionTokens webVersions;
    private final PreferenceTokens preferences;
    private final URI base;
    private final boolean mailboxRead;
    private final Optional<String> mailto;
    private final Optional<ReturnPaths> returnPaths;
    private final Optional<String> returnPathDomain;

    /**
     * @param mailboxRead whether a mailbox task reads unsubscribe requests sent by mail; without one
     *                    no mailto is advertised
     * @param mailto      {@code unsubscribe.mailto}; empty: {@code unsubscribe@<the message's From domain>}
     */
    ProductionLinks(UnsubscribeTokens tokens, WebVersionTokens webVersions, PreferenceTokens preferences, URI base,
                    boolean mailboxRead, Optional<String> mailto, Optional<ReturnPaths> returnPaths,
                    Optional<String> returnPathDomain) {
        this.tokens = tokens;
        this.webVersions = webVersions;
        this.preferences = preferences;
        this.base = base;
        this.mailboxRead = mailboxRead;
        this.mailto = mailto;
        this.returnPaths = returnPaths;
        this.returnPathDomain = returnPathDomain;
    }

    public static UnsubscribeLinks of(Services services) {
        UnsubscribeConfig u = services.config().unsubscribe();
        SigningKey key = SigningKey.of(u.requireSecret().reveal());
        URI base = URI.create(u.requireBaseUrl());
        Optional<String> bounceDomain = services.config().bounce().returnPathDomain();
        return new ProductionLinks(new UnsubscribeTokens(key), webVersions(services), new PreferenceTokens(key, services.clock()), base,
                services.config().bounce().mailbox().isPresent(), u.mailto(), bounceDomain.map(d -> new ReturnPaths(key)),
                bounceDomain);
    }

    /**
     * The web version tokens of this configuration: made by the send path, checked by the public
     * listener, both with the services' clock.
     */
    static WebVersionTokens webVersions(Services services) {
        SigningKey key = SigningKey.of(services.config().unsubscribe().requireSecret().reveal());
        return new WebVersionTokens(key, services.config().webVersion().ttl(), services.clock());
    }

    @Override
    public String url(long campaignId, long recipientId, String email) {
        return tokens.url(base, campaignId, recipientId, email).toString();
    }

    @Override
    public String webVersion(long campaignId, long recipientId) {
        return webVersions.url(base, campaignId, recipientId);
    }

    @Override
    public Optional<String> preferences(long campaignId, String email) {
        return Optional.of(preferences.link(base, campaignId, email));
    }

    @Override
    public Optional<String> mailto(String fromDomain, long campaignId, long recipientId, String email) {
        if (!mailboxRead) {
            return Optional.empty();
        }
        String address = mailto.orElseGet(() -> DEFAULT_MAILTO_LOCAL_PART + "@" + fromDomain);
        return Optional.of(tokens.mailto(address, campaignId, recipientId, email));
    }

    @Override
    public Optional<String> envelopeFrom(long campaignId, long recipientId, String email) {
        return returnPaths.map(rp -> rp.address(returnPathDomain.orElseThrow(), campaignId, recipientId));
    }
}
