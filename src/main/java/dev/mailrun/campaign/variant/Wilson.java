package dev.mailrun.campaign.variant;

/**
 * A proportion with its 95 % Wilson score interval: unlike p ± 1.96·√(p(1-p)/n) it stays inside
 * [0, 1] and is not zero-width at 0 of n, which is what a test share's small counts give.
 *
 * @param successes what was counted
 * @param trials    out of how many; 0 gives the uninformative interval [0, 1]
 */
public record Wilson(long successes, long trials, double rate, double low, double high) {

    /** z for a two-sided 95 % interval. */
    static final double Z = 1.959963984540054;

    public static Wilson of(long successes, long trials) {
        if (successes < 0 || trials < 0 || successes > trials) {
            throw new IllegalArgumentException("need 0 <= successes <= trials, got " + successes + " of " + trials);
        }
        if (trials == 0) {
            return new Wilson(0, 0, 0, 0, 1);
        }
        double n = trials;
        double p = successes / n;
        double z2 = Z * Z;
        double denominator = 1 + z2 / n;
        double centre = (p + z2 / (2 * n)) / denominator;
        double half = Z * Math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denominator;
        return new Wilson(successes, trials, p, Math.max(0, centre - half), Math.min(1, centre + half));
    }

    /** {@code 1.2% (95% 0.6–2.4%, 5 of 412)}. */
    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "%.1f%% (95%% %.1f–%.1f%%, %d of %d)", rate * 100, low * 100, high * 100,
                successes, trials);
    }
}
