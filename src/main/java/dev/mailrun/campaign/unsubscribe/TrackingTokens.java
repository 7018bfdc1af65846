package dev.mailrun.campaign.unsubscribe;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Signed tracking tokens: {@code <base>/c/<token>} (a click on link {@code i}) and
 * {@code <base>/o/<token>.gif} (an open), signed with the same key as unsubscribe tokens under their
 * own purpose, so neither can stand for the other.
 *
 * <p>Format: lower-case base32 of {@code version(1) · campaign(varint) · recipient(varint) · kind(1:
 * 'c' or 'o') · [link index(varint), clicks only] · HMAC-SHA256(purpose "track/1", the preceding
 * bytes)[0..16)}. Changing any bit (another link index, another recipient) breaks the signature.
 */
public final class TrackingTokens {

    public static final String CLICK_PREFIX = "/c/";
    public static final String OPEN_PREFIX = "/o/";
    public static final String OPEN_SUFFIX = ".gif";
    static final String PURPOSE = "track/1";
    private static final int SIGNATURE_BYTES = 16;
    /** Far above a genuine token (about 40 characters), far below anything costly to decode. */
    private static final int MAX_TOKEN_CHARS = 80;
    private static final byte CLICK = 'c';
    private static final byte OPEN = 'o';

    /** What a genuine token names; {@code linkIndex} is -1 for an open. */
    public record Target(long campaignId, long recipientId, boolean click, int linkIndex) {}

    private final SignedIdTokens tokens;

    public TrackingTokens(SigningKey key) {
        this.tokens = new SignedIdTokens(key, PURPOSE, SIGNATURE_BYTES, SignedIdTokens.Text.BASE32);
    }

    public String clickToken(long campaignId, long recipientId, int linkIndex) {
        if (linkIndex < 0) {
            throw new IllegalArgumentException("link index " + linkIndex);
        }
        ByteArrayOutputStream rest = new ByteArrayOutputStream(4);
        rest.write(CLICK);
        Varints.write(rest, linkIndex);
        return tokens.token(campaignId, recipientId, rest.toByteArray());
    }

    public String openToken(long campaignId, long recipientId) {
        return tokens.token(campaignId, recipientId, new byte[] {OPEN});
    }

    /** What a genuine token names; empty for anything malformed, too long, tampered with or forged. */
    public Optional<Target> verify(String token) {
        if (token == null || token.isEmpty() || token.length() > MAX_TOKEN_CHARS) {
            return Optional.empty();
        }
        return tokens.open(token).flatMap(TrackingTokens::target);
    }

    private static Optional<Target> target(SignedIdTokens.Opened opened) {
        ByteBuffer rest = opened.rest();
        if (!rest.hasRemaining()) {
            return Optional.empty();
        }
        byte kind = rest.get();
        if (kind == OPEN && !rest.hasRemaining()) {
            return Optional.of(new Target(opened.campaignId(), opened.recipientId(), false, -1));
        }
        if (kind != CLICK) {
            return Optional.empty();
        }
        OptionalLong index = Varints.read(rest);
        if (index.isEmpty() || rest.hasRemaining() || index.getAsLong() > Short.MAX_VALUE) {
            return Optional.empty();
        }
        return Optional.of(new Target(opened.campaignId(), opened.recipientId(), true, (int) index.getAsLong()));
    }
}
