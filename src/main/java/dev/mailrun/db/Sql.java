package dev.mailrun.db;

/** Small helpers for building parameterised statements: every value is bound, never inlined. */
public final class Sql {

    private Sql() {}

    /** "?, ?, ?" for an IN list of n parameters. */
    public static String placeholders(int n) {
        if (n <= 0) {
            throw new IllegalArgumentException("an IN list needs at least one value");
        }
        return "?" + ", ?".repeat(n - 1);
    }

    /** {@code s} cut to a column's {@code max} characters; null stays null. */
    public static String truncate(String s, int max) {
        return s == null || s.length() <= max ? s : s.substring(0, max);
    }
}
