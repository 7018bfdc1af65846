package dev.mailrun.campaign.send.pace;

import dev.mailrun.campaign.model.AdaptiveRate;
import dev.mailrun.campaign.store.AdaptedRateTable.Adapted;
import dev.mailrun.campaign.store.AdaptedRateTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The run's side of the adapted rates ({@link AdaptiveRate}, {@code adapted_rate}): one entry for
 * the relay ({@code relay:<host:port>}) and one per domain group ({@code domain:<group>}).
 *
 * <ol>
 *   <li>An SMTP worker reporting "too fast" halves the rate here at once (at most once per guard
 *       period), so this run slows down before its next message, and queues the halving for the
 *       database. The worker never waits for the database.</li>
 *   <li>At every relay-share renewal (each second, on the flush thread) {@link #sync} writes the
 *       queued halvings — skipped when another worker halved the same rate within the guard period
 *       — steps up the rates whose cool-down is over, and reads them all back: what every worker
 *       then sends at.</li>
 * </ol>
 */
final class RateAdapter {

    /** One adapted name: its rule and the rate it adapts from. */
    private record Entry(String name, AdaptiveRate rule, double configured) {}

    /** What one run saw of one rate, for its summary. */
    record Seen(double lowest, int tooFast) {}

    private final AdaptedRateTable table;
    private final Map<String, Entry> entries = new LinkedHashMap<>();
    private final Map<String, Double> current = new HashMap<>();
    private final Map<String, Instant> localDecrease = new HashMap<>();
    private final Map<String, String> pending = new LinkedHashMap<>();
    private final Map<String, Seen> seen = new LinkedHashMap<>();

    RateAdapter(AdaptedRateTable table) {
        this.table = table;
    }

    static String relayKey(String relay) {
        return "relay:" + relay;
    }

    /** Adapts {@code name} from {@code configured} by {@code rule}; a configured rate of 0 (no limit) cannot adapt. */
    void add(String name, AdaptiveRate rule, double configured) {
        if (configured > 0) {
            entries.put(name, new Entry(name, rule, configured));
        }
    }

    /** The adapted rate of {@code name} in total (all workers), or empty when it runs at its configured rate. */
    synchronized OptionalDouble rate(String name) {
        Double r = current.get(name);
        return r == null ? OptionalDouble.empty() : OptionalDouble.of(r);
    }

    /**
     * A "too fast" reply for {@code name}: halves its rate locally now, at most once per guard
     * period, and queues the halving for the database. False when {@code name} cannot adapt.
     */
    synchronized boolean tooFast(String name, String reply, Instant now) {
        Entry e = entries.get(name);
        if (e == null) {
            return false;
        }
        Seen s = seen.getOrDefault(name, new Seen(e.configured(), 0));
        Instant last = localDecrease.get(name);
        if (last == null || !now.isBefore(last.plus(e.rule().guard()))) {
            double halved = e.rule().halved(current.getOrDefault(name, e.configured()), e.configured());
            current.put(name, halved);
            localDecrease.put(name, now);
            pending.put(name, reply);
            s = new Seen(Math.min(s.lowest(), halved), s.tooFast());
        }
        seen.put(name, new Seen(s.lowest(), s.tooFast() + 1));
        return true;
    }

    /**
     * Writes the queued halvings, steps up what may step up, and reads every adapted rate back, in
     * the caller's transaction (the renewal's). Returns the rows as they are now.
     */
    Map<String, Adapted> sync(Connection c, Instant now) throws SQLException {
        Map<String, String> lowered;
        synchronized (this) {
            lowered = new LinkedHashMap<>(pending);
            pending.clear();
        }
        for (Map.Entry<String, String> p : lowered.entrySet()) {
            Entry e = entries.get(p.getKey());
            table.halve(c, e.name(), e.configured(), AdaptiveRate.floor(e.configured()), e.rule().guard(), now, p.getValue());
        }
        Collection<String> names = entries.keySet();
        Map<String, Adapted> rows = table.read(c, names);
        for (Adapted a : List.copyOf(rows.values())) {
            Entry e = entries.get(a.name());
            if (e.rule().mayStepUp(a.decreasedAt(), a.increasedAt(), now)) {
                double next = e.rule().steppedUp(a.rate(), e.configured());
                boolean recovered = next >= e.configured();
                if (table.raise(c, a, next, recovered, now)) {
                    if (recovered) {
                        rows.remove(a.name());
                    } else {
                        rows.put(a.name(), new Adapted(a.name(), next, a.decreasedAt(), now, a.decreases(), a.reason()));
                    }
                }
            }
        }
        synchronized (this) {
            // A halving made locally while this ran is newer than the rows: it stays until written.
            Map<String, Double> newer = new HashMap<>();
            pending.keySet().forEach(k -> newer.put(k, current.get(k)));
            current.clear();
            rows.values().forEach(a -> {
                current.put(a.name(), a.rate());
                seen.merge(a.name(), new Seen(a.rate(), 0), (x, y) -> new Seen(Math.min(x.lowest(), y.lowest()), x.tooFast()));
            });
            newer.forEach((k, v) -> {
                if (v != null) {
                    current.put(k, v);
                }
            });
        }
        return rows;
    }

    /** The rates this run saw lowered, and how many too-fast replies each had. */
    synchronized Map<String, Seen> seen() {
        return new LinkedHashMap<>(seen);
    }

    /** Every adaptable rate by name: its rate in total now (the configured one unless adapted). */
    synchronized Map<String, Double> rates() {
        Map<String, Double> rates = new LinkedHashMap<>();
        entries.values().forEach(e -> rates.put(e.name(), current.getOrDefault(e.name(), e.configured())));
        return rates;
    }

    /** Names of every adaptable rate. */
    List<String> names() {
        return new ArrayList<>(entries.keySet());
    }
}
