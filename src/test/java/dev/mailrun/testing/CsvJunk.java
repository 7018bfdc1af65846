package dev.mailrun.testing;

import java.util.Random;

/** Pieces of hostile CSV content for fuzz tests: quotes, line breaks of every kind, NUL, BOM, emoji. */
public final class CsvJunk {

    public static final String[] PIECES = {"a", "Ω", "\"", "\"\"", ",", "\r", "\n", "\r\n", "\0", "\t", " ", "@", "..",
            "x@y.example", "\u2028", "\u2029", "\u0085", "\uFEFF", "😀", "\\", "'", ";", "=", "<", ">"};

    private CsvJunk() {
    }

    /** Up to {@code maxPieces} random pieces. */
    public static String junk(Random r, int maxPieces) {
        StringBuilder b = new StringBuilder();
        int n = r.nextInt(maxPieces + 1);
        for (int i = 0; i < n; i++) {
            b.append(PIECES[r.nextInt(PIECES.length)]);
        }
        return b.toString();
    }

    /** The field as RFC 4180 writes it when quoted. */
    public static String quoted(String field) {
        return "\"" + field.replace("\"", "\"\"") + "\"";
    }
}
