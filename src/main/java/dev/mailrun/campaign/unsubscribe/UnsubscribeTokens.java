package dev.mailrun.campaign.unsubscribe;

import java.net.URI;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Signed unsubscribe tokens over (campaign id, recipient id, address).
 *
 * <p>Format: base64url without padding of {@code version(1) · campaign(varint) · recipient(varint) ·
 * address(UTF-8) · HMAC-SHA256(purpose "unsubscribe/1", the preceding bytes)[0..16)}. The address is
 * inside the token so that an unsubscribe works even after the recipient row is gone; 128 bits of
 * signature make forgery by guessing hopeless.
 */
public final class UnsubscribeTokens {

    /** The endpoint's route: a link is the public base URL, this, and the token ({@code <base>/u/<token>}). */
    public static final String PATH_PREFIX = "/u/";
    static final String PURPOSE = "unsubscribe/1";
    /**
     * The subject of an unsubscribe request sent by mail is this and the token: the mailto link sets
     * it, {@link MailedUnsubscribes} reads it.
     */
    static final String MAIL_SUBJECT_PREFIX = "unsubscribe-";
    private static final int SIGNATURE_BYTES = 16;
    private static final int MAX_TOKEN_CHARS = 1024;

    private final SignedIdTokens tokens;

    public UnsubscribeTokens(SigningKey key) {
        this.tokens = new SignedIdTokens(key, PURPOSE, SIGNATURE_BYTES, SignedIdTokens.Text.BASE64URL);
    }

    public String token(long campaignId, long recipientId, String address) {
        return tokens.token(campaignId, recipientId, address.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The link for a List-Unsubscribe header and the message body: {@code <base>/u/<token>}, where
     * {@code base} is a {@link #linkBase} (the configuration is normalised once when it is loaded). A
     * trailing slash on the base is ignored.
     */
    public URI url(URI base, long campaignId, long recipientId, String address) {
        return URI.create(withoutTrailingSlashes(base.toString()) + PATH_PREFIX + token(campaignId, recipientId, address));
    }

    /**
     * The mailto: URI for List-Unsubscribe: {@code mailto:<address>?subject=unsubscribe-<token>}. The
     * token is base64url, which needs no percent-encoding in a URI.
     */
    public String mailto(String address, long campaignId, long recipientId, String recipientAddress) {
        return "mailto:" + address + "?subject=" + MAIL_SUBJECT_PREFIX + token(campaignId, recipientId, recipientAddress);
    }

    /**
     * The configured public URL without the endpoint's own {@code /u} and without trailing slashes:
     * {@code https://host}, {@code https://host/} and {@code https://host/u/} all give
     * {@code https://host}, and {@code https://host/mail/u} (a proxy that forwards {@code /mail/} to
     * the endpoint) gives {@code https://host/mail}. Operators write the URL both ways; appending
     * {@code /u/} to one that already ends in it made links the endpoint does not serve.
     */
    public static URI linkBase(URI configured) {
        String s = withoutTrailingSlashes(configured.toString());
        String route = PATH_PREFIX.substring(0, PATH_PREFIX.length() - 1);
        if (s.endsWith(route) && configured.getRawPath() != null && configured.getRawPath().length() > 1) {
            s = withoutTrailingSlashes(s.substring(0, s.length() - route.length()));
        }
        return URI.create(s);
    }

    private static String withoutTrailingSlashes(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == '/') {
            end--;
        }
        return s.substring(0, end);
    }

    /** The subject of a genuine token; empty for anything malformed, tampered with or forged. */
    public Optional<UnsubscribeTarget> verify(String token) {
        if (token == null || token.isEmpty() || token.length() > MAX_TOKEN_CHARS) {
            return Optional.empty();
        }
        return tokens.open(token)
                .filter(opened -> opened.rest().hasRemaining())
                .flatMap(UnsubscribeTokens::target);
    }

    private static Optional<UnsubscribeTarget> target(SignedIdTokens.Opened opened) {
        try {
            String address = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .decode(opened.rest()).toString();
            return Optional.of(new UnsubscribeTarget(opened.campaignId(), opened.recipientId(), address));
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }
}
