package dev.mailrun.campaign.send.pace;

import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.campaign.send.route.WeightedSplit;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The rate a campaign's route sends at, as the route sender deals it: each relay that takes
 * traffic gets its weight's share of the recipients and sends them at its own rate, so a batch
 * lasts as long as the slowest relay's part. When the weights follow the rates (a=7/s and b=3/s
 * with {@code a:70,b:30}) that is the sum of those relays' rates; a relay of weight 0, or one that is
 * down, adds nothing while the others carry its share. The campaign's own rate caps the whole.
 * What {@code campaign status} shows as the configured rate and what a run's window share is
 * measured against.
 */
public final class RouteRate {

    private RouteRate() {}

    /**
     * @param rates       each relay's rate for all workers together, 0 meaning no limit; a relay
     *                    missing from it (no longer configured) takes no traffic
     * @param usable      whether a relay takes traffic now (up, and not at its daily cap); when no
     *                    relay of the route does, the rate is the route's once they all are back
     * @param campaignCap the campaign's {@code --rate}; 0: none
     * @return messages per second; 0 = no limit
     */
    public static double of(RelayRoute route, Map<String, Double> rates, Predicate<String> usable, double campaignCap) {
        List<String> relays = route.relays();
        boolean[] up = new boolean[relays.size()];
        boolean anyUp = false;
        for (int i = 0; i < up.length; i++) {
            up[i] = rates.containsKey(relays.get(i)) && usable.test(relays.get(i));
            anyUp |= up[i];
        }
        if (!anyUp) {
            for (int i = 0; i < up.length; i++) {
                up[i] = rates.containsKey(relays.get(i));
            }
        }
        int[] e = WeightedSplit.effective(route.weights(), up);
        long total = 0;
        for (int w : e) {
            total += w;
        }
        double rate = Double.POSITIVE_INFINITY;
        for (int i = 0; i < e.length; i++) {
            double r = rates.getOrDefault(relays.get(i), 0.0);
            if (e[i] > 0 && r > 0) {
                rate = Math.min(rate, r * total / e[i]);
            }
        }
        double routeRate = Double.isInfinite(rate) ? 0 : rate;
        if (campaignCap > 0) {
            return routeRate <= 0 ? campaignCap : Math.min(routeRate, campaignCap);
        }
        return routeRate;
    }

    /** The route's rate with every relay up: what the configuration allows. */
    public static double configured(RelayRoute route, Map<String, Double> rates, double campaignCap) {
        return of(route, rates, relay -> true, campaignCap);
    }
}
