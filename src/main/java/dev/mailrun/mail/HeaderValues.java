package dev.mailrun.mail;

import java.util.Optional;

/**
 * The one rule for every value that ends up in a mail header: no line breaks, no control characters.
 *
 * <p>A CR or LF in a header value would let a recipient's data start a new header (or the body);
 * other control characters and the Unicode line separators are refused too, because some mail
 * software treats them as line ends.
 */
public final class HeaderValues {

    private HeaderValues() {
    }

    /** The reason {@code value} cannot go into header {@code header}, or empty when it can. */
    public static Optional<String> problem(String header, String value) {
        if (value == null) {
            return Optional.of(header + ": value is missing");
        }
        int bad = value.codePoints().filter(HeaderValues::isForbidden).findFirst().orElse(-1);
        if (bad < 0) {
            return Optional.empty();
        }
        return Optional.of(header + ": value contains " + describe(bad) + ", which is not allowed in a header");
    }

    private static boolean isForbidden(int c) {
        return Character.getType(c) == Character.CONTROL || c == '\u2028' || c == '\u2029';
    }

    private static String describe(int c) {
        return switch (c) {
            case '\r' -> "a carriage return (CR)";
            case '\n' -> "a line feed (LF)";
            default -> String.format("the control character U+%04X", c);
        };
    }
}
