package dev.mailrun.campaign.unsubscribe;

import java.net.URI;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Signed tokens of the preference centre (docs/PREFERENCES.md), each kind under its own purpose, so
 * that none stands for another or for an unsubscribe, web version or tracking token:
 *
 * <ul>
 *   <li>{@link Kind#LINK}, {@code <base>/p/<token>}: {@code {{ preferences_url }}} in a message of a
 *       campaign sent to lists; it does not expire, as the one-click unsubscribe link does not.</li>
 *   <li>{@link Kind#FORM}: carried by the page's forms, so that a POST comes from a page this listener
 *       served for this address (CSRF); it expires {@link #FORM_TTL} after the page was shown.</li>
 *   <li>{@link Kind#ERASE}, {@code <base>/p/erase/<token>}: the link of the erasure confirmation mailed to
 *       the address; it expires {@link #ERASE_TTL} after it was sent.</li>
 * </ul>
 *
 * <p>Format, with the layout {@link SignedIdTokens} shares: base64url without padding of
 * {@code version(1) · campaign(varint) · expires(varint, seconds since the epoch; 0 for a link) ·
 * address(UTF-8, as sent to) · HMAC-SHA256(purpose, the preceding bytes)[0..16)}. The campaign is the
 * one whose message carried the link: the confirmation mail goes from its From address.
 */
public final class PreferenceTokens {

    /** The page's route: {@code <base>/p/<token>}. */
    public static final String PATH_PREFIX = "/p/";
    /** The erasure confirmation's route: {@code <base>/p/erase/<token>}. */
    public static final String ERASE_PREFIX = PATH_PREFIX + "erase/";
    public static final Duration FORM_TTL = Duration.ofHours(2);
    public static final Duration ERASE_TTL = Duration.ofHours(24);
    private static final int SIGNATURE_BYTES = 16;
    private static final int MAX_TOKEN_CHARS = 1024;

    /** What a token stands for. */
    public enum Kind {
        LINK("preferences/1"), FORM("preferences-form/1"), ERASE("erase/1");

        private final String purpose;

        Kind(String purpose) {
            this.purpose = purpose;
        }
    }

    /** What a genuine, unexpired token names: the address it was made for and the campaign whose message carried it. */
    public record Target(long campaignId, String address) {}

    private final SigningKey key;
    private final Clock clock;

    public PreferenceTokens(SigningKey key, Clock clock) {
        this.key = key;
        this.clock = clock;
    }

    public String token(Kind kind, long campaignId, String address) {
        long expires = switch (kind) {
            case LINK -> 0;
            case FORM -> clock.instant().plus(FORM_TTL).getEpochSecond();
            case ERASE -> clock.instant().plus(ERASE_TTL).getEpochSecond();
        };
        return tokens(kind).token(campaignId, expires, address.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code <base>/p/<token>}, {@code base} being the normalised public URL ({@link UnsubscribeTokens#linkBase}). */
    public String link(URI base, long campaignId, String address) {
        return base + PATH_PREFIX + token(Kind.LINK, campaignId, address);
    }

    /** {@code <base>/p/erase/<token>}: works for {@link #ERASE_TTL}. */
    public String eraseLink(URI base, long campaignId, String address) {
        return base + ERASE_PREFIX + token(Kind.ERASE, campaignId, address);
    }

    /** What a genuine token of this kind names while it has not expired; empty for anything malformed, altered, forged or expired. */
    public Optional<Target> verify(Kind kind, String token) {
        if (token == null || token.isEmpty() || token.length() > MAX_TOKEN_CHARS) {
            return Optional.empty();
        }
        return tokens(kind).open(token).flatMap(opened -> target(kind, opened));
    }

    private Optional<Target> target(Kind kind, SignedIdTokens.Opened opened) {
        long expires = opened.recipientId();
        if (kind == Kind.LINK ? expires != 0
                : expires == 0 || expires > Instant.MAX.getEpochSecond() || !clock.instant().isBefore(Instant.ofEpochSecond(expires))) {
            return Optional.empty();
        }
        if (!opened.rest().hasRemaining()) {
            return Optional.empty();
        }
        try {
            String address = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(opened.rest()).toString();
            return Optional.of(new Target(opened.campaignId(), address));
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }

    private SignedIdTokens tokens(Kind kind) {
        return new SignedIdTokens(key, kind.purpose, SIGNATURE_BYTES, SignedIdTokens.Text.BASE64URL);
    }
}
