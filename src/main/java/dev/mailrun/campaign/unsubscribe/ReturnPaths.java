package dev.mailrun.campaign.unsubscribe;

import java.util.Optional;

/**
 * Per-recipient envelope senders ({@code bounces+<token>@<domain>}, "VERP"): a bounce sent to that
 * address names the campaign and recipient it belongs to, whatever the bounce's format.
 *
 * <p>The token is lower-case base32 of {@code version(1) · campaign(varint) · recipient(varint) ·
 * HMAC-SHA256(purpose "return-path/1", the preceding bytes)[0..10)}: at most 47 characters for the
 * largest ids, so the local part stays within the 64 octets RFC 5321 allows. Base32 survives relays
 * that change the case of the local part. 80 bits of signature stop anyone from suppressing
 * addresses by mailing forged bounces to the bounce mailbox.
 */
public final class ReturnPaths {

    static final String LOCAL_PREFIX = "bounces";
    static final int MAX_LOCAL_PART_OCTETS = 64;

    static final String PURPOSE = "return-path/1";
    private static final int SIGNATURE_BYTES = 10;

    private final SignedIdTokens tokens;

    public ReturnPaths(SigningKey key) {
        this.tokens = new SignedIdTokens(key, PURPOSE, SIGNATURE_BYTES, SignedIdTokens.Text.BASE32);
    }

    public String token(long campaignId, long recipientId) {
        return tokens.token(campaignId, recipientId, new byte[0]);
    }

    /** The envelope sender (MAIL FROM) for one recipient's message. */
    public String address(String domain, long campaignId, long recipientId) {
        String local = LOCAL_PREFIX + "+" + token(campaignId, recipientId);
        // Cannot happen with 63-bit ids (at most 55 octets); checked so a format change cannot slip past.
        if (local.length() > MAX_LOCAL_PART_OCTETS) {
            throw new IllegalStateException("return-path local part exceeds 64 octets: " + local.length());
        }
        return local + "@" + domain;
    }

    public Optional<ReturnPathTarget> verify(String token) {
        if (token == null || token.length() < 8 || token.length() > MAX_LOCAL_PART_OCTETS) {
            return Optional.empty();
        }
        return tokens.open(token)
                .filter(opened -> !opened.rest().hasRemaining())
                .map(opened -> new ReturnPathTarget(opened.campaignId(), opened.recipientId()));
    }
}
