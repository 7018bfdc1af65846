package dev.mailrun.csv;

import java.nio.charset.StandardCharsets;

/**
 * A value from a file as a summary or an error shows it: on one line, control characters escaped (a
 * file must not move the operator's cursor or colour the terminal), and at most
 * {@link #MAX_CHARS} characters followed by the size of the whole. One rule for every import
 * (recipients, suppressions); a rejects file keeps the value as it was.
 */
public final class Shown {

    static final int MAX_CHARS = 200;

    private Shown() {
    }

    public static String of(String value) {
        if (value.length() <= MAX_CHARS && value.chars().noneMatch(Shown::isControl)) {
            return value;
        }
        StringBuilder b = new StringBuilder(MAX_CHARS + 32);
        int end = Math.min(value.length(), MAX_CHARS);
        for (int i = 0; i < end; i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\r' -> b.append("\\r");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                default -> {
                    if (isControl(c)) {
                        b.append(String.format("\\u%04X", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        if (end < value.length()) {
            b.append("… (").append(value.getBytes(StandardCharsets.UTF_8).length).append(" bytes)");
        }
        return b.toString();
    }

    private static boolean isControl(int c) {
        return Character.getType(c) == Character.CONTROL || c == '\u2028' || c == '\u2029';
    }
}
