package dev.mailrun.campaign.store;


/** Small helpers for building parameterised statements. */
final class Sql {

    private Sql() {}

    /** "?, ?, ?" for an IN list of n parameters (values are always bound, never inlined). */
    static String placeholders(int n) {
        if (n <= 0) {
            throw new IllegalArgumentException("an IN list needs at least one value");
        }
        return "?" + ", ?".repeat(n - 1);
    }
}
