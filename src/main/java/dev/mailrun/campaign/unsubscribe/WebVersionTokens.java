package dev.mailrun.campaign.unsubscribe;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Signed web version links, {@code <base>/w/<token>}: the message as sent to one recipient, shown on
 * the public listener until the link expires ({@code webversion.ttl} after the message was built).
 *
 * <p>Signed with the unsubscribe secret's key under their own purpose: that secret is set whenever
 * anything is sent and whenever the public listener runs (it serves {@code /u/}), where the tracking
 * base URL and its endpoints exist only with tracking on. The purpose keeps a web version token from
 * standing for an unsubscribe or tracking one, and the other way round.
 *
 * <p>Format: base64url without padding of {@code version(1) · campaign(varint) · recipient(varint) ·
 * expires(varint, seconds since the epoch) · HMAC-SHA256(purpose "web/1", the preceding bytes)[0..16)}.
 * The expiry is under the signature, so a link cannot be made to last longer.
 */
public final class WebVersionTokens {

    /** The endpoint's route: a link is the public base URL, this, and the token. */
    public static final String PATH_PREFIX = "/w/";
    static final String PURPOSE = "web/1";
    private static final int SIGNATURE_BYTES = 16;
    /** Far above a genuine token (about 40 characters), far below anything costly to decode. */
    private static final int MAX_TOKEN_CHARS = 100;

    /** What a genuine, unexpired token names. */
    public record Target(long campaignId, long recipientId, Instant expires) {}

    private final SignedIdTokens tokens;
    private final Duration ttl;
    private final Clock clock;

    /** @param ttl how long a link works after it is made; {@code clock} says when that is, and when it is checked */
    public WebVersionTokens(SigningKey key, Duration ttl, Clock clock) {
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("webversion.ttl must be positive, got " + ttl);
        }
        this.tokens = new SignedIdTokens(key, PURPOSE, SIGNATURE_BYTES, SignedIdTokens.Text.BASE64URL);
        this.ttl = ttl;
        this.clock = clock;
    }

    /** A token that works until {@code ttl} from now, to the second. */
    public String token(long campaignId, long recipientId) {
        ByteArrayOutputStream rest = new ByteArrayOutputStream(5);
        Varints.write(rest, clock.instant().plus(ttl).getEpochSecond());
        return tokens.token(campaignId, recipientId, rest.toByteArray());
    }

    /** {@code <base>/w/<token>}, {@code base} being the normalised public URL ({@link UnsubscribeTokens#linkBase}). */
    public String url(URI base, long campaignId, long recipientId) {
        return base + PATH_PREFIX + token(campaignId, recipientId);
    }

    /** What a genuine token names while it has not expired; empty for anything malformed, altered, forged or expired. */
    public Optional<Target> verify(String token) {
        if (token == null || token.isEmpty() || token.length() > MAX_TOKEN_CHARS) {
            return Optional.empty();
        }
        return tokens.open(token).flatMap(this::unexpired);
    }

    private Optional<Target> unexpired(SignedIdTokens.Opened opened) {
        ByteBuffer rest = opened.rest();
        OptionalLong expires = Varints.read(rest);
        if (expires.isEmpty() || rest.hasRemaining() || expires.getAsLong() > Instant.MAX.getEpochSecond()) {
            return Optional.empty();
        }
        Instant at = Instant.ofEpochSecond(expires.getAsLong());
        if (!clock.instant().isBefore(at)) {
            return Optional.empty();
        }
        return Optional.of(new Target(opened.campaignId(), opened.recipientId(), at));
    }
}
