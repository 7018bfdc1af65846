package dev.mailrun.events.delivery;

import java.util.Base64;

/**
 * An endpoint's signing secret as the Standard Webhooks specification writes it: {@code whsec_}
 * followed by the base64 of 24 to 64 random bytes, which are the HMAC key. Never shown: its
 * {@link #toString()} is a mask, and no error message quotes it.
 */
public final class SigningSecret {

    static final String PREFIX = "whsec_";

    private final byte[] key;

    private SigningSecret(byte[] key) {
        this.key = key;
    }

    /** @throws IllegalArgumentException naming what is wrong, never quoting the value */
    public static SigningSecret parse(String value) {
        if (value == null || !value.startsWith(PREFIX)) {
            throw new IllegalArgumentException("must start with whsec_ (Standard Webhooks secret format)");
        }
        byte[] key;
        try {
            key = Base64.getDecoder().decode(value.substring(PREFIX.length()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("must be whsec_ followed by base64");
        }
        if (key.length < 24 || key.length > 64) {
            throw new IllegalArgumentException("must hold 24 to 64 bytes after whsec_ (it holds " + key.length + ")");
        }
        return new SigningSecret(key);
    }

    byte[] key() {
        return key.clone();
    }

    @Override
    public String toString() {
        return "whsec_***";
    }
}
