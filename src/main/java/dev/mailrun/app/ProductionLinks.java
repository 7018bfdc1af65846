package dev.mailrun.app;

import dev.mailrun.app.config.UnsubscribeConfig;
import dev.mailrun.campaign.send.UnsubscribeLinks;
import dev.mailrun.campaign.unsubscribe.ReturnPaths;
import dev.mailrun.campaign.unsubscribe.SigningKey;
import dev.mailrun.campaign.unsubscribe.UnsubscribeTokens;
import java.net.URI;
import java.util.Optional;

/**
 * Signed unsubscribe links on the configured public URL, a mailto on the sender's domain, and
 * (when bounce processing is configured) a signed return path so bounces map back to recipients.
 */
public final class ProductionLinks implements UnsubscribeLinks {

    private final UnsubscribeTokens tokens;
    private final URI base;
    private final Optional<String> mailto;
    private final Optional<ReturnPaths> returnPaths;
    private final Optional<String> returnPathDomain;

    ProductionLinks(UnsubscribeTokens tokens, URI base, Optional<String> mailto, Optional<ReturnPaths> returnPaths,
                    Optional<String> returnPathDomain) {
        this.tokens = tokens;
        this.base = base;
        this.mailto = mailto;
        this.returnPaths = returnPaths;
        this.returnPathDomain = returnPathDomain;
    }

    public static UnsubscribeLinks of(Services services) {
        UnsubscribeConfig u = services.config().unsubscribe();
        SigningKey key = SigningKey.of(u.requireSecret().reveal());
        URI base = URI.create(u.requireBaseUrl());
        Optional<String> bounceDomain = services.config().bounce().returnPathDomain();
        return new ProductionLinks(new UnsubscribeTokens(key), base, u.mailto(),
                bounceDomain.map(d -> new ReturnPaths(key)), bounceDomain);
    }

    @Override
    public String url(long campaignId, long recipientId, String email) {
        return tokens.url(base, campaignId, recipientId, email).toString();
    }

    @Override
    public String mailto(long campaignId, long recipientId, String email) {
        String address = mailto.orElseGet(() -> "unsubscribe@" + base.getHost());
        return "mailto:" + address + "?subject=unsubscribe-" + tokens.token(campaignId, recipientId, email);
    }

    @Override
    public Optional<String> envelopeFrom(long campaignId, long recipientId, String email) {
        return returnPaths.map(rp -> rp.address(returnPathDomain.orElseThrow(), campaignId, recipientId));
    }
}
