package dev.mailrun.campaign.send.deliver;

import java.util.Optional;

/**
 * The per-recipient addresses a message carries: for unsubscribing, for its web version and for
 * bounces.
 */
public interface UnsubscribeLinks {

    /** The https one-click URL with a signed token. */
    String url(long campaignId, long recipientId, String email);

    /**
     * A mailto: URI for List-Unsubscribe, for a message sent from an address at {@code fromDomain}
     * (one worker sends campaigns of several senders); empty when no mailbox reads unsubscribe
     * requests sent by mail, so that none is advertised.
     */
    Optional<String> mailto(String fromDomain, long campaignId, long recipientId, String email);

    /**
     * The signed link to the message as sent to the recipient ({@code {{ web_url }}}), on the same
     * public URL as {@link #url}; it expires after webversion.ttl.
     */
    String webVersion(long campaignId, long recipientId);

    /**
     * The signed link to the recipient's preference centre ({@code {{ preferences_url }}},
     * docs/PREFERENCES.md), on the same public URL as {@link #url}; empty where none is served.
     */
    default Optional<String> preferences(long campaignId, String email) {
        return Optional.empty();
    }

    /** A VERP envelope sender ({@code bounces+TOKEN@domain}) or empty to use the From address. */
    Optional<String> envelopeFrom(long campaignId, long recipientId, String email);
}
