package dev.mailrun.campaign.unsubscribe;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The layout return-path and unsubscribe tokens share: {@code version(1) · campaign(varint) ·
 * recipient(varint) · rest · HMAC-SHA256(purpose, the preceding bytes)[0..signatureBytes)}, written
 * as text in one {@link Text}. Each kind chooses its purpose, signature length, text and what its
 * {@code rest} holds; making and opening the token is this one piece, so the two cannot drift apart.
 */
final class SignedIdTokens {

    /** A genuine token's ids, and the bytes between them and the signature. */
    record Opened(long campaignId, long recipientId, ByteBuffer rest) {}

    /** How the token's bytes are spelled. */
    enum Text {
        /** Case-insensitive, for envelope local parts whose case relays may change. */
        BASE32 {
            @Override
            String encode(byte[] raw) {
                return Base32.encode(raw);
            }

            @Override
            Optional<byte[]> decode(String token) {
                return Base32.decode(token);
            }

            @Override
            boolean sameSpelling(String issued, String token) {
                return issued.equalsIgnoreCase(token);
            }
        },
        /** base64url without padding: needs no percent-encoding in a URL or a mailto subject. */
        BASE64URL {
            @Override
            String encode(byte[] raw) {
                return Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
            }

            @Override
            Optional<byte[]> decode(String token) {
                try {
                    return Optional.of(Base64.getUrlDecoder().decode(token));
                } catch (IllegalArgumentException e) {
                    return Optional.empty();
                }
            }

            @Override
            boolean sameSpelling(String issued, String token) {
                return issued.equals(token);
            }
        };

        abstract String encode(byte[] raw);

        abstract Optional<byte[]> decode(String token);

        abstract boolean sameSpelling(String issued, String token);
    }

    private static final byte VERSION = 1;
    /** The two ids take at least a byte each. */
    private static final int MIN_ID_BYTES = 2;

    private final SigningKey key;
    private final String purpose;
    private final int signatureBytes;
    private final Text text;

    SignedIdTokens(SigningKey key, String purpose, int signatureBytes, Text text) {
        this.key = key;
        this.purpose = purpose;
        this.signatureBytes = signatureBytes;
        this.text = text;
    }

    String token(long campaignId, long recipientId, byte[] rest) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(VERSION);
        Varints.write(out, campaignId);
        Varints.write(out, recipientId);
        out.writeBytes(rest);
        byte[] payload = out.toByteArray();
        out.writeBytes(key.sign(purpose, payload, signatureBytes));
        return text.encode(out.toByteArray());
    }

    /** The ids of a genuine token; empty for anything malformed, tampered with or forged. */
    Optional<Opened> open(String token) {
        Optional<byte[]> decoded = text.decode(token);
        if (decoded.isEmpty()) {
            return Optional.empty();
        }
        byte[] raw = decoded.get();
        // Unused trailing bits would let two spellings decode alike; accept only the one we issue.
        if (!text.sameSpelling(text.encode(raw), token)) {
            return Optional.empty();
        }
        Optional<ByteBuffer> opened = key.open(purpose, VERSION, raw, MIN_ID_BYTES, signatureBytes);
        if (opened.isEmpty()) {
            return Optional.empty();
        }
        ByteBuffer in = opened.get();
        OptionalLong campaign = Varints.read(in);
        OptionalLong recipient = Varints.read(in);
        if (campaign.isEmpty() || recipient.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Opened(campaign.getAsLong(), recipient.getAsLong(), in));
    }
}
