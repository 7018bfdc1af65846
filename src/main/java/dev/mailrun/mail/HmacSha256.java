package dev.mailrun.mail;

import java.security.GeneralSecurityException;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA256 under one key, for many threads. The key is set up once in a prototype; each
 * {@link #start} hands out a clone of it. Looking the algorithm up and keying it for every
 * signature cost a few per cent of the sending threads' time (a message carries three or four
 * signatures: Message-ID, unsubscribe link, unsubscribe address, return path).
 */
public final class HmacSha256 {

    private static final String ALGORITHM = "HmacSHA256";

    private final SecretKeySpec key;
    private final Mac prototype;

    public HmacSha256(byte[] secret) {
        Objects.requireNonNull(secret, "secret");
        this.key = new SecretKeySpec(secret, ALGORITHM);
        this.prototype = fresh();
    }

    /** A keyed MAC of one's own, ready for {@code update}/{@code doFinal}. */
    public Mac start() {
        try {
            // The prototype is never updated, so concurrent clones read a state that does not change.
            return (Mac) prototype.clone();
        } catch (CloneNotSupportedException e) {
            return fresh();
        }
    }

    private Mac fresh() {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is required of every Java runtime", e);
        }
    }
}
