package dev.mailrun.campaign.send.route;

/**
 * Deals recipients to the relays of a route in proportion to their weights, recipient by recipient
 * (smooth weighted round robin): after any number of recipients each relay has had its share to
 * within one recipient, and the relays alternate instead of taking runs of recipients. Not
 * thread-safe: the run's thread deals.
 */
public final class WeightedSplit {

    private final long[] current;

    public WeightedSplit(int legs) {
        this.current = new long[legs];
    }

    /**
     * The leg of the next recipient.
     *
     * @param weights each leg's effective weight now ({@link #effective}); at least one above 0
     */
    public int next(int[] weights) {
        long total = 0;
        int best = -1;
        for (int i = 0; i < weights.length; i++) {
            if (weights[i] <= 0) {
                continue;
            }
            total += weights[i];
            current[i] += weights[i];
            if (best < 0 || current[i] > current[best]) {
                best = i;
            }
        }
        if (best < 0) {
            throw new IllegalStateException("no leg of the route has a weight");
        }
        current[best] -= total;
        return best;
    }

    /**
     * The weights with every leg that is down handing its weight to the next leg after it that is
     * up (wrapping around); all 0 when no leg is up.
     */
    public static int[] effective(int[] weights, boolean[] up) {
        int n = weights.length;
        int[] e = new int[n];
        for (int i = 0; i < n; i++) {
            if (up[i]) {
                e[i] += weights[i];
                continue;
            }
            for (int k = 1; k < n; k++) {
                int j = (i + k) % n;
                if (up[j]) {
                    e[j] += weights[i];
                    break;
                }
            }
        }
        return e;
    }
}
