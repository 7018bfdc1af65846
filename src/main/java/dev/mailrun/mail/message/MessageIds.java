package dev.mailrun.mail.message;

import dev.mailrun.mail.HmacSha256;
import dev.mailrun.mail.Secret;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Message-IDs derived from campaign and recipient: {@code <c12.r3456.SIGNATURE@example.com>}.
 *
 * <p>Deriving instead of generating means a resent message carries the same ID (receivers can
 * de-duplicate), and a bounce or reply quoting the ID leads back to the recipient. The signature
 * (an HMAC over the two ids) keeps outsiders from forging IDs that point at other recipients.
 */
public final class MessageIds {

    private static final Pattern DOMAIN = Pattern.compile("(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,63}");
    private static final Pattern ID = Pattern.compile("<c(\\d+)\\.r(\\d+)\\.([0-9a-f]{16})@([^>]+)>");

    private final String domain;
    private final HmacSha256 hmac;

    /** @param domain the sender's domain; IDs on it align with the From domain */
    public MessageIds(String domain, Secret key) {
        this(key, checked(domain));
    }

    /** @param domain null: reads IDs on any domain */
    private MessageIds(Secret key, String domain) {
        Objects.requireNonNull(key, "key");
        if (key.reveal().length() < 16) {
            throw new IllegalArgumentException("Message-ID signing key must have at least 16 characters");
        }
        this.domain = domain;
        this.hmac = new HmacSha256(key.reveal().getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Reads the IDs of every campaign, whatever its From domain: the signature covers the two ids
     * only, so it alone tells a genuine ID (what a reply's In-Reply-To is checked with). Derives none.
     */
    public static MessageIds anyDomain(Secret key) {
        return new MessageIds(key, null);
    }

    private static String checked(String domain) {
        Objects.requireNonNull(domain, "domain");
        if (!DOMAIN.matcher(domain).matches()) {
            throw new IllegalArgumentException("Message-ID domain must be a host name like example.com, got '" + domain + "'");
        }
        return domain.toLowerCase(java.util.Locale.ROOT);
    }

    public String derive(long campaignId, long recipientId) {
        if (domain == null) {
            throw new IllegalStateException("an any-domain reader derives no Message-IDs");
        }
        if (campaignId < 0 || recipientId < 0) {
            throw new IllegalArgumentException("ids must be >= 0, got c" + campaignId + " r" + recipientId);
        }
        return "<c" + campaignId + ".r" + recipientId + "." + signature(campaignId, recipientId) + "@" + domain + ">";
    }

    /** The ids inside a Message-ID this instance derived; empty for any other or forged ID. */
    public Optional<Ids> parse(String messageId) {
        Matcher matcher = ID.matcher(messageId == null ? "" : messageId.strip());
        if (!matcher.matches() || (domain != null && !matcher.group(4).equalsIgnoreCase(domain))) {
            return Optional.empty();
        }
        try {
            long campaignId = Long.parseLong(matcher.group(1));
            long recipientId = Long.parseLong(matcher.group(2));
            boolean genuine = MessageDigest.isEqual(
                    signature(campaignId, recipientId).getBytes(StandardCharsets.US_ASCII),
                    matcher.group(3).getBytes(StandardCharsets.US_ASCII));
            return genuine ? Optional.of(new Ids(campaignId, recipientId)) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    public record Ids(long campaignId, long recipientId) {
    }

    private String signature(long campaignId, long recipientId) {
        byte[] digest = hmac.start().doFinal(("c" + campaignId + ".r" + recipientId).getBytes(StandardCharsets.US_ASCII));
        return HexFormat.of().formatHex(digest, 0, 8);
    }
}
