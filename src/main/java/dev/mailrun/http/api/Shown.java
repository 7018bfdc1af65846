package dev.mailrun.http.api;

/** A client's value quoted back in an answer: at most 100 characters, control characters escaped. */
final class Shown {

    private static final int MAX = 100;

    private Shown() {}

    static String of(String value) {
        if (value == null) {
            return "";
        }
        StringBuilder b = new StringBuilder();
        value.codePoints().limit(MAX).forEach(cp -> {
            if (cp < 0x20 || cp == 0x7f) {
                b.append(String.format("\\u%04x", cp));
            } else {
                b.appendCodePoint(cp);
            }
        });
        return value.codePointCount(0, value.length()) > MAX ? b + "…" : b.toString();
    }
}
