package dev.mailrun.campaign.unsubscribe;

import dev.mailrun.mail.HmacSha256;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Optional;
import javax.crypto.Mac;

/**
 * The configured {@code unsubscribe.secret}, used to sign unsubscribe and return-path tokens.
 *
 * <p>Every signature covers a purpose label as well as the payload, so a token made for one use
 * (a return path) can never be replayed as another (an unsubscribe link).
 */
public final class SigningKey {

    static final int MIN_LENGTH = 32;

    private final HmacSha256 hmac;

    private SigningKey(byte[] secret) {
        this.hmac = new HmacSha256(secret);
    }

    /** Fails fast on a short secret; the message never contains the secret itself. */
    public static SigningKey of(String secret) {
        if (secret == null || secret.isBlank()) {
            throw new IllegalArgumentException("unsubscribe.secret is not set: give at least " + MIN_LENGTH + " random characters");
        }
        if (secret.length() < MIN_LENGTH) {
            throw new IllegalArgumentException("unsubscribe.secret is too short: " + secret.length()
                    + " characters, at least " + MIN_LENGTH + " are required");
        }
        return new SigningKey(secret.getBytes(StandardCharsets.UTF_8));
    }

    /** HMAC-SHA256 over purpose and payload, cut to {@code length} bytes. */
    byte[] sign(String purpose, byte[] payload, int length) {
        Mac mac = hmac.start();
        mac.update(purpose.getBytes(StandardCharsets.US_ASCII));
        mac.update((byte) 0);
        return Arrays.copyOf(mac.doFinal(payload), length);
    }

    /**
     * A key of its own for {@code purpose}, derived from the secret (HMAC of the purpose), as hex: for
     * a library that signs with a key it is given (the sign-up form's proof of work), so that every
     * worker sharing the secret checks what any of them issued, and the secret itself never leaves.
     */
    public String derivedKey(String purpose) {
        return java.util.HexFormat.of().formatHex(sign("derived-key:" + purpose, new byte[0], 32));
    }

    /**
     * Checks a decoded token laid out as {@code version · payload · signature(signatureBytes)}:
     * returns the ids part (after the version byte) when the version matches, at least
     * {@code minIdBytes} precede the signature, and the signature is genuine; empty otherwise.
     */
    Optional<ByteBuffer> open(String purpose, byte version, byte[] raw, int minIdBytes, int signatureBytes) {
        if (raw.length < 1 + minIdBytes + signatureBytes || raw[0] != version) {
            return Optional.empty();
        }
        byte[] payload = Arrays.copyOfRange(raw, 0, raw.length - signatureBytes);
        byte[] signature = Arrays.copyOfRange(raw, raw.length - signatureBytes, raw.length);
        if (!verify(purpose, payload, signature)) {
            return Optional.empty();
        }
        return Optional.of(ByteBuffer.wrap(payload, 1, payload.length - 1));
    }

    /** Constant-time check, so response timing says nothing about how much of a forgery was right. */
    boolean verify(String purpose, byte[] payload, byte[] signature) {
        return MessageDigest.isEqual(sign(purpose, payload, signature.length), signature);
    }

    @Override
    public String toString() {
        return "SigningKey[hidden]";
    }
}
