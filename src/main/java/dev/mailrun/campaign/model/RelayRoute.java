package dev.mailrun.campaign.model;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The relays a campaign sends through, in failover order, each with a weight: {@code primary:70,backup:30}.
 *
 * <ul>
 *   <li>Recipients are split among the relays that are up in proportion to their weights.</li>
 *   <li>A relay's share goes, while it is down, to the next relay of the route that is up (after it,
 *       wrapping around).</li>
 *   <li>A relay of weight 0 takes traffic only in place of one that is down.</li>
 *   <li>A route whose weights are all 0 (a plain list, {@code primary,backup}) sends everything through
 *       its first relay; the others stand in, in order.</li>
 * </ul>
 */
public record RelayRoute(List<Leg> legs) {

    /** Relay names: what a configuration key and an environment variable can both carry. */
    public static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,31}");
    public static final int MAX_WEIGHT = 10_000;

    /** One relay of the route and its weight. */
    public record Leg(String relay, int weight) {
        public Leg {
            checkName(relay);
            if (weight < 0 || weight > MAX_WEIGHT) {
                throw badWeight(relay, String.valueOf(weight));
            }
        }
    }

    public RelayRoute {
        legs = List.copyOf(legs);
        if (legs.isEmpty()) {
            throw new IllegalArgumentException("a relay route names at least one relay");
        }
        Set<String> seen = new HashSet<>();
        for (Leg leg : legs) {
            if (!seen.add(leg.relay())) {
                throw new IllegalArgumentException("relay '" + leg.relay() + "': named twice (name each relay once)");
            }
        }
    }

    /** One relay taking all traffic. */
    public static RelayRoute of(String relay) {
        return new RelayRoute(List.of(new Leg(relay, 1)));
    }

    /**
     * Parses {@code NAME}, {@code NAME,NAME} or {@code NAME:WEIGHT,…}.
     *
     * @throws IllegalArgumentException with a one-line reason
     */
    public static RelayRoute parse(String text) {
        Objects.requireNonNull(text, "route");
        if (text.isBlank()) {
            throw new IllegalArgumentException("must name at least one relay");
        }
        List<Leg> legs = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            String p = part.strip();
            int colon = p.indexOf(':');
            String name = colon < 0 ? p : p.substring(0, colon).strip();
            int weight = 0;
            if (colon >= 0) {
                String w = p.substring(colon + 1).strip();
                if (!w.matches("\\d{1,5}")) {
                    throw badWeight(name, w);
                }
                weight = Integer.parseInt(w);
            }
            legs.add(new Leg(name, weight));
        }
        return new RelayRoute(legs);
    }

    /**
     * The route as {@link #parse} reads it back, with the weights it sends by ({@link #weights}): a
     * plain list {@code primary,backup} reads {@code primary:1,backup:0}, as status shows it.
     */
    public String text() {
        int[] w = weights();
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < legs.size(); i++) {
            parts.add(legs.get(i).relay() + ":" + w[i]);
        }
        return String.join(",", parts);
    }

    /** Every weight error reads the same, whether the weight is not a number or out of range. */
    private static IllegalArgumentException badWeight(String relay, String weight) {
        return new IllegalArgumentException("relay '" + relay + "': weight must be a whole number 0.." + MAX_WEIGHT
                + ", got '" + weight + "'");
    }

    public List<String> relays() {
        return legs.stream().map(Leg::relay).toList();
    }

    /** The weight each leg sends with while every relay is up: all 0 means the first takes everything. */
    public int[] weights() {
        int[] w = legs.stream().mapToInt(Leg::weight).toArray();
        if (legs.stream().allMatch(l -> l.weight() == 0)) {
            w[0] = 1;
        }
        return w;
    }

    public static void checkName(String relay) {
        if (relay == null || !NAME.matcher(relay).matches()) {
            throw new IllegalArgumentException("relay name '" + relay
                    + "' must be a lower-case letter followed by up to 31 lower-case letters, digits or '-'");
        }
    }
}
