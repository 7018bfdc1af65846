package dev.mailrun.campaign.report;

import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.campaign.send.pace.RouteRate;
import dev.mailrun.campaign.send.policy.DailyCap;
import dev.mailrun.campaign.store.AdaptedRateTable;
import dev.mailrun.campaign.store.DailyCountTable;
import dev.mailrun.campaign.store.RelayStateTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A campaign's route as it stands now, for {@code campaign status}: which of its relays are down
 * (until when and why) or at their daily cap, the route's configured rate over the relays that take
 * traffic ({@link RouteRate}), its rate now with any rate adapted after "too fast" replies, and when
 * sending resumes if every relay is down. The relays that take traffic are those up and under their
 * cap — or, when every relay that is up is at its cap, those up, as the sending run deals them.
 */
final class RouteNow {

    /**
     * @param configured   messages per second the route is configured for over the relays that take
     *                     traffic, capped by the campaign's rate; 0 = no limit
     * @param allUp        the same with every relay of the route up: what a run's window share is measured against
     * @param rateNow      the same with adapted rates; what the ETA uses
     * @param held         one phrase per relay of the route that is down
     * @param allDownUntil when every relay of the route is down: the first back-off's end (a probe
     *                     is due from then)
     * @param usedToday    with a daily cap, what each relay taking traffic has taken today; empty without
     */
    record View(double configured, double allUp, double rateNow, List<String> held, Optional<Instant> allDownUntil,
                List<Long> usedToday) {}

    private final Map<String, Double> rates;
    private final DailyCap cap;
    private final RelayStates states;
    private final DailyCountTable counts = new DailyCountTable();
    private final AdaptedRateTable adapted = new AdaptedRateTable();

    /** @param rates each configured relay's rate ({@code smtp.<name>.rate}), 0 meaning no limit */
    RouteNow(Map<String, Double> rates, RelayStates states, DailyCap cap) {
        this.rates = Map.copyOf(rates);
        this.states = states;
        this.cap = cap;
    }

    View read(Connection c, RelayRoute route, double campaignCap, Instant now) throws SQLException {
        Map<String, RelayStateTable.State> state = states.read(c, route.relays());
        LocalDate day = cap.dayOf(now);
        OptionalLong volume = cap.volumeOn(day);
        Set<String> up = new HashSet<>();
        Set<String> open = new HashSet<>();
        Map<String, Long> used = new HashMap<>();
        List<String> held = new ArrayList<>();
        Optional<Instant> firstBack = Optional.empty();
        for (String relay : route.relays()) {
            used.put(relay, volume.isPresent() ? counts.read(c, relay, day) : 0L);
            RelayStateTable.State st = state.get(relay);
            if (st.downUntil().isPresent()) {
                Instant until = st.downUntil().get();
                String why = st.reason().map(r -> " (" + r + ")").orElse("");
                held.add(until.isAfter(now) ? "relay " + relay + " down until " + until + why
                        : "relay " + relay + " down, its back-off over since " + until + ": the next run probes it" + why);
                firstBack = firstBack.filter(f -> !f.isAfter(until)).or(() -> Optional.of(until));
                continue;
            }
            up.add(relay);
            if (volume.isEmpty() || used.get(relay) < volume.getAsLong()) {
                open.add(relay);
            }
        }
        Set<String> taking = open.isEmpty() ? up : open;
        Map<String, Double> adaptedRates = new HashMap<>(rates);
        List<String> keys = route.relays().stream().map(r -> "relay:" + r).toList();
        adapted.read(c, keys).forEach((key, a) -> {
            String relay = key.substring("relay:".length());
            if (adaptedRates.containsKey(relay)) {
                adaptedRates.put(relay, a.rate());
            }
        });
        // With every relay down, the day's room is the whole route's once they are back.
        List<Long> usedToday = volume.isEmpty() ? List.of()
                : route.relays().stream().filter(r -> up.isEmpty() || up.contains(r)).map(used::get).toList();
        return new View(RouteRate.of(route, rates, taking::contains, campaignCap), RouteRate.configured(route, rates, campaignCap),
                RouteRate.of(route, adaptedRates, taking::contains, campaignCap), held,
                up.isEmpty() ? firstBack : Optional.empty(), usedToday);
    }
}
