package dev.mailrun.mail;

import java.util.Optional;

/**
 * The one rule for every value that ends up in a mail header: no line breaks, no control
 * characters other than TAB. Campaign settings are checked with it when they are entered, and every
 * message's header values again when it is built, so both refuse the same values.
 *
 * <p>A CR or LF in a header value would let a recipient's data start a new header (or the body);
 * the other C0 and C1 controls (NEL, U+0085, among them), DEL and the Unicode line and paragraph
 * separators are refused too, because some mail software treats them as line ends. TAB is white
 * space in a header (RFC 5322 WSP), so it is allowed.
 */
public final class HeaderValues {

    private HeaderValues() {
    }

    /**
     * Why {@code value} cannot go into a header, as one line starting with {@code label} (a header
     * name such as {@code Subject}, or the option or setting the value came from); empty when it can.
     */
    public static Optional<String> check(String label, String value) {
        return problem(value).map(p -> label + ": " + p);
    }

    /** Why {@code value} cannot go into a header, naming nothing else ({@code contains …}); empty when it can. */
    public static Optional<String> problem(String value) {
        if (value == null) {
            return Optional.of("value is missing");
        }
        // A plain loop: this runs for every header of every message.
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (isForbidden(c)) {
                return Optional.of("contains " + describe(c) + ", which is not allowed in a header");
            }
        }
        return Optional.empty();
    }

    /** C0 controls except TAB, DEL, C1 controls, U+2028 and U+2029; all of them are single chars. */
    private static boolean isForbidden(char c) {
        if (c < 0x20) {
            return c != '\t';
        }
        return c >= 0x7f && (c <= 0x9f || c == '\u2028' || c == '\u2029');
    }

    private static String describe(char c) {
        String code = String.format("U+%04X", (int) c);
        return switch (c) {
            case '\r' -> "the control character " + code + " (carriage return)";
            case '\n' -> "the control character " + code + " (line feed)";
            case '\u0085' -> "the control character " + code + " (next line)";
            case '\u2028' -> "the line separator " + code;
            case '\u2029' -> "the paragraph separator " + code;
            default -> "the control character " + code;
        };
    }
}
