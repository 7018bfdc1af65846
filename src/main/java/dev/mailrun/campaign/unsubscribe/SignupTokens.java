package dev.mailrun.campaign.unsubscribe;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The two signed tokens of a sign-up, under the unsubscribe secret's key, each with its own purpose
 * (so neither stands for the other, nor for an unsubscribe, web version or tracking token):
 *
 * <ul>
 *   <li>The form token, in every hosted form: {@code version · 0 · 0 · issued(varint seconds) ·
 *       HMAC(purpose "signup-form/1")[0..16)}. It proves the form came from this server (CSRF) and
 *       says when it was shown, for the minimum fill time.</li>
 *   <li>The confirmation token, in the confirmation link {@code <base>/confirm/<token>}:
 *       {@code version · subscriber(varint) · 0 · expires(varint seconds) · nonce(16) ·
 *       HMAC(purpose "signup-confirm/1")[0..16)}. The expiry is under the signature; the nonce's
 *       SHA-256 is stored with the pending consent ({@link #nonceHash}), and cleared when it is used,
 *       so a link confirms once.</li>
 * </ul>
 * base64url without padding, as the other tokens.
 */
public final class SignupTokens {

    public static final String CONFIRM_PREFIX = "/confirm/";
    static final String FORM_PURPOSE = "signup-form/1";
    static final String CONFIRM_PURPOSE = "signup-confirm/1";
    private static final int SIGNATURE_BYTES = 16;
    private static final int NONCE_BYTES = 16;
    private static final int MAX_TOKEN_CHARS = 120;

    /** A new confirmation link's token and the hash of its nonce, to be stored. */
    public record Issued(String token, byte[] nonceHash, Instant expires) {}

    /** What a genuine confirmation token names; {@code expired} when its time has passed. */
    public record Confirmation(long subscriberId, byte[] nonceHash, Instant expires, boolean expired) {}

    private final SignedIdTokens forms;
    private final SignedIdTokens confirmations;
    private final Duration confirmTtl;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    public SignupTokens(SigningKey key, Duration confirmTtl, Clock clock) {
        if (confirmTtl.isNegative() || confirmTtl.isZero()) {
            throw new IllegalArgumentException("signup.confirm-ttl must be positive, got " + confirmTtl);
        }
        this.forms = new SignedIdTokens(key, FORM_PURPOSE, SIGNATURE_BYTES, SignedIdTokens.Text.BASE64URL);
        this.confirmations = new SignedIdTokens(key, CONFIRM_PURPOSE, SIGNATURE_BYTES, SignedIdTokens.Text.BASE64URL);
        this.confirmTtl = confirmTtl;
        this.clock = clock;
    }

    /** A form token issued now. */
    public String formToken() {
        ByteArrayOutputStream rest = new ByteArrayOutputStream(5);
        Varints.write(rest, clock.instant().getEpochSecond());
        return forms.token(0, 0, rest.toByteArray());
    }

    /** When a genuine form token was issued; empty for anything malformed, altered or forged. */
    public Optional<Instant> formIssued(String token) {
        if (token == null || token.isEmpty() || token.length() > MAX_TOKEN_CHARS) {
            return Optional.empty();
        }
        return forms.open(token).flatMap(o -> {
            OptionalLong issued = Varints.read(o.rest());
            if (o.campaignId() != 0 || o.recipientId() != 0 || issued.isEmpty() || o.rest().hasRemaining()
                    || issued.getAsLong() > Instant.MAX.getEpochSecond()) {
                return Optional.empty();
            }
            return Optional.of(Instant.ofEpochSecond(issued.getAsLong()));
        });
    }

    /** A confirmation token for the subscriber, working until {@code signup.confirm-ttl} from now. */
    public Issued confirmation(long subscriberId) {
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        Instant expires = Instant.ofEpochSecond(clock.instant().plus(confirmTtl).getEpochSecond());
        ByteArrayOutputStream rest = new ByteArrayOutputStream(24);
        Varints.write(rest, expires.getEpochSecond());
        rest.writeBytes(nonce);
        return new Issued(confirmations.token(subscriberId, 0, rest.toByteArray()), nonceHash(nonce), expires);
    }

    /** What a genuine confirmation token names (expired or not); empty for anything malformed, altered or forged. */
    public Optional<Confirmation> confirmation(String token) {
        if (token == null || token.isEmpty() || token.length() > MAX_TOKEN_CHARS) {
            return Optional.empty();
        }
        return confirmations.open(token).flatMap(o -> {
            ByteBuffer rest = o.rest();
            OptionalLong expires = Varints.read(rest);
            if (o.recipientId() != 0 || expires.isEmpty() || rest.remaining() != NONCE_BYTES
                    || expires.getAsLong() > Instant.MAX.getEpochSecond()) {
                return Optional.empty();
            }
            byte[] nonce = new byte[NONCE_BYTES];
            rest.get(nonce);
            Instant at = Instant.ofEpochSecond(expires.getAsLong());
            return Optional.of(new Confirmation(o.campaignId(), nonceHash(nonce), at, !clock.instant().isBefore(at)));
        });
    }

    private static byte[] nonceHash(byte[] nonce) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(nonce);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return "SignupTokens[" + Arrays.toString(new String[] {FORM_PURPOSE, CONFIRM_PURPOSE}) + "]";
    }
}
