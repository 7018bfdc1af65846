package dev.mailrun.campaign.model;

import java.net.IDN;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A recipient address checked against RFC 5321/5322 limits and normalised: trimmed, domain
 * lower-cased and converted to punycode, local part kept as written (it may be case-sensitive).
 *
 * <p>Only dot-atom local parts in ASCII are accepted: quoted local parts and non-ASCII local parts
 * (SMTPUTF8) are legal but rarely deliverable through ordinary relays, so they are rejected with a
 * reason rather than sent into a bounce.
 */
public record EmailAddress(String localPart, String domain) {

    static final int MAX_LOCAL_PART_OCTETS = 64;
    public static final int MAX_ADDRESS_OCTETS = 254;

    private static final Pattern ATOM = Pattern.compile("[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+");
    private static final Pattern LABEL = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");

    /** The outcome of checking one address: the address, or why it was refused. */
    public sealed interface Check permits Valid, Invalid {}

    public record Valid(EmailAddress address) implements Check {}

    /** Why an address was refused: {@code kind} for counting, {@code reason} for the operator. */
    public record Invalid(Kind kind, String reason) implements Check {

        /**
         * The reason without the kind it starts with ({@code expected local-part@domain}), for a report
         * that names the kind beside it: "invalid syntax (expected local-part@domain)".
         */
        public String detail() {
            String prefix = kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ') + ": ";
            return reason.startsWith(prefix) ? reason.substring(prefix.length()) : reason;
        }
    }

    public enum Kind { INVALID_SYNTAX, TOO_LONG }

    public static Check check(String raw) {
        if (raw == null || raw.isBlank()) {
            return new Invalid(Kind.INVALID_SYNTAX, "invalid syntax: empty address");
        }
        String s = raw.strip();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                return new Invalid(Kind.INVALID_SYNTAX, "invalid syntax: control character in address");
            }
        }
        int at = s.lastIndexOf('@');
        if (at <= 0 || at == s.length() - 1) {
            return new Invalid(Kind.INVALID_SYNTAX, "invalid syntax: expected local-part@domain");
        }
        String local = s.substring(0, at);
        String domainRaw = s.substring(at + 1);
        if (local.getBytes(StandardCharsets.UTF_8).length > MAX_LOCAL_PART_OCTETS) {
            return new Invalid(Kind.TOO_LONG, "too long: local part exceeds " + MAX_LOCAL_PART_OCTETS + " octets");
        }
        if (!isDotAtom(local)) {
            return new Invalid(Kind.INVALID_SYNTAX, "invalid syntax: local part '" + local + "'");
        }
        String domain;
        if (isAscii(domainRaw)) {
            // Almost every domain is plain ASCII: the hostname check below is all it needs, and
            // the IDN conversion is the slowest step of an import.
            domain = domainRaw.toLowerCase(Locale.ROOT);
        } else {
            try {
                domain = IDN.toASCII(domainRaw, IDN.USE_STD3_ASCII_RULES).toLowerCase(Locale.ROOT);
            } catch (IllegalArgumentException e) {
                return new Invalid(Kind.INVALID_SYNTAX, "invalid syntax: domain '" + domainRaw + "'");
            }
        }
        if (!isHostname(domain)) {
            return new Invalid(Kind.INVALID_SYNTAX, "invalid syntax: domain '" + domainRaw + "'");
        }
        int octets = local.length() + 1 + domain.length();
        if (octets > MAX_ADDRESS_OCTETS) {
            return new Invalid(Kind.TOO_LONG, "too long: address exceeds " + MAX_ADDRESS_OCTETS + " octets");
        }
        return new Valid(new EmailAddress(local, domain));
    }

    /** Parses an address known to be valid (configuration, stored rows); throws otherwise. */
    public static EmailAddress of(String raw) {
        Check c = check(raw);
        if (c instanceof Invalid invalid) {
            throw new IllegalArgumentException("invalid email address '" + raw + "': " + invalid.reason());
        }
        return ((Valid) c).address();
    }

    private static boolean isAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    private static boolean isDotAtom(String local) {
        if (local.startsWith(".") || local.endsWith(".") || local.contains("..")) {
            return false;
        }
        for (String atom : local.split("\\.")) {
            if (!ATOM.matcher(atom).matches()) {
                return false;
            }
        }
        return true;
    }

    private static boolean isHostname(String domain) {
        if (domain.length() > 253 || !domain.contains(".") || domain.endsWith(".")) {
            return false;
        }
        String[] labels = domain.split("\\.");
        for (String label : labels) {
            if (!LABEL.matcher(label).matches()) {
                return false;
            }
        }
        // A top-level label of digits is an IP address written wrongly, never a hostname.
        return !labels[labels.length - 1].chars().allMatch(Character::isDigit);
    }

    /** The form stored in recipient.email. */
    public String value() {
        return localPart + "@" + domain;
    }

    /** The form stored in suppression.address: suppressions ignore case. */
    public String suppressionKey() {
        return value().toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return value();
    }
}
