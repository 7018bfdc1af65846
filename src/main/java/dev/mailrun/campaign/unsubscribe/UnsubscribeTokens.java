package dev.mailrun.campaign.unsubscribe;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Signed unsubscribe tokens over (campaign id, recipient id, address).
 *
 * <p>Format: base64url without padding of {@code version(1) · campaign(varint) · recipient(varint) ·
 * address(UTF-8) · HMAC-SHA256(purpose "unsubscribe/1", the preceding bytes)[0..16)}. The address is
 * inside the token so that an unsubscribe works even after the recipient row is gone; 128 bits of
 * signature make forgery by guessing hopeless.
 */
public final class UnsubscribeTokens {

    /** Where the links point: {@code <base>/u/<token>}. */
    public static final String PATH_PREFIX = "/u/";
    static final String PURPOSE = "unsubscribe/1";
    private static final byte VERSION = 1;
    private static final int SIGNATURE_BYTES = 16;
    private static final int MAX_TOKEN_CHARS = 1024;

    private final SigningKey key;

    public UnsubscribeTokens(SigningKey key) {
        this.key = key;
    }

    public String token(long campaignId, long recipientId, String address) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(VERSION);
        Varints.write(out, campaignId);
        Varints.write(out, recipientId);
        out.writeBytes(address.getBytes(StandardCharsets.UTF_8));
        byte[] payload = out.toByteArray();
        out.writeBytes(key.sign(PURPOSE, payload, SIGNATURE_BYTES));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(out.toByteArray());
    }

    /**
     * The link for a List-Unsubscribe header and the message body: {@code <base>/u/<token>}. A trailing
     * slash on the base is ignored.
     */
    public URI url(URI base, long campaignId, long recipientId, String address) {
        String b = base.toString();
        String prefix = b.endsWith("/") ? b.substring(0, b.length() - 1) : b;
        return URI.create(prefix + PATH_PREFIX + token(campaignId, recipientId, address));
    }

    /** The subject of a genuine token; empty for anything malformed, tampered with or forged. */
    public Optional<UnsubscribeTarget> verify(String token) {
        if (token == null || token.isEmpty() || token.length() > MAX_TOKEN_CHARS) {
            return Optional.empty();
        }
        byte[] raw;
        try {
            raw = Base64.getUrlDecoder().decode(token);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        // Unused trailing bits would let two spellings decode alike; accept only the one we issue.
        if (!Base64.getUrlEncoder().withoutPadding().encodeToString(raw).equals(token)) {
            return Optional.empty();
        }
        Optional<ByteBuffer> opened = key.open(PURPOSE, VERSION, raw, 2, SIGNATURE_BYTES);
        if (opened.isEmpty()) {
            return Optional.empty();
        }
        ByteBuffer in = opened.get();
        OptionalLong campaign = Varints.read(in);
        OptionalLong recipient = Varints.read(in);
        if (campaign.isEmpty() || recipient.isEmpty() || !in.hasRemaining()) {
            return Optional.empty();
        }
        try {
            String address = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .decode(in).toString();
            return Optional.of(new UnsubscribeTarget(campaign.getAsLong(), recipient.getAsLong(), address));
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }
}
