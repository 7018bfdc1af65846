package dev.mailrun.campaign.importing;

/**
 * A value from the file as the summary shows it: on one line, control characters escaped (a
 * file must not move the operator's cursor or colour the terminal), and at most
 * {@link #MAX_CHARS} characters followed by the size of the whole. The rejects file keeps the
 * value as it was.
 */
final class Shown {

    static final int MAX_CHARS = 200;

    private Shown() {
    }

    static String of(String value) {
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
            b.append("… (").append(Utf8.length(value)).append(" bytes)");
        }
        return b.toString();
    }

    private static boolean isControl(int c) {
        return Character.getType(c) == Character.CONTROL || c == '\u2028' || c == '\u2029';
    }
}
