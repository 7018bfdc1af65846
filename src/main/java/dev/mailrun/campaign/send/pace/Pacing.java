package dev.mailrun.campaign.send.pace;

import dev.mailrun.campaign.model.AdaptiveRate;
import dev.mailrun.campaign.model.DomainGroup;
import dev.mailrun.campaign.send.route.Relay;
import dev.mailrun.campaign.send.route.Relays;
import dev.mailrun.campaign.send.scope.SendSettings;
import dev.mailrun.campaign.store.AdaptedRateTable;
import dev.mailrun.mail.smtp.SendResult;
import dev.mailrun.mail.smtp.TooFast;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A run's pace, the one owner of every rate the run sends at: the rate of each relay of its route
 * ({@link RelayRate}, one per relay, keyed by the relay's name, created here from the relay's
 * configured rate), the share of the campaign's own rate each relay carries, the rate of the whole
 * route that the timebox predicts with, the domain groups' ({@link DomainPacer}), and how all of
 * them adapt to "too fast" replies ({@link RateAdapter}). Built once per run. The route's sender
 * only tells it which share of the recipients each relay takes now ({@link #routed}) and reads
 * each relay's limiter.
 */
public final class Pacing {

    private final RateAdapter adapter;
    private final DomainPacer domains;
    /** The route's relays in route order, each with its rate. */
    private final List<RelayRate> relays;
    private final Map<String, RelayRate> byName = new ConcurrentHashMap<>();
    private final double campaignCap;
    private final Clock clock;
    /** Each relay's share of the recipients now, in route order: its weight, 0 while it takes none. */
    private volatile int[] routed;

    private Pacing(RateAdapter adapter, DomainPacer domains, List<Relay> route, double campaignCap, Clock clock) {
        this.adapter = adapter;
        this.domains = domains;
        this.campaignCap = campaignCap;
        this.clock = clock;
        this.relays = route.stream().map(r -> RelayRate.forRelay(r.rate(), 0)).toList();
        for (int i = 0; i < route.size(); i++) {
            byName.put(route.get(i).name(), relays.get(i));
        }
        this.routed = new int[route.size()];
        Arrays.fill(routed, 1);
    }

    /** @param campaignCap the campaign's own rate ({@code --rate}); 0: none */
    public static Pacing forRoute(SendSettings settings, List<Relay> route, double campaignCap, Clock clock) {
        RateAdapter adapter = new RateAdapter(new AdaptedRateTable());
        for (Relay relay : route) {
            adapter.add(RateAdapter.relayKey(relay.name()), AdaptiveRate.RELAY, relay.rate());
        }
        double fastest = Relays.fastest(route);
        for (DomainGroup g : settings.domainGroups().groups()) {
            // An uncapped group adapts from the relays' rate: the pace it had before it said "too fast".
            adapter.add(g.key(), AdaptiveRate.DOMAIN, g.rate() > 0 ? g.rate() : fastest);
        }
        return new Pacing(adapter, new DomainPacer(settings.domainGroups(), adapter), route, campaignCap, clock);
    }

    /** The rate of the route's relay named {@code relay}: its limiter is what that relay's connections send through. */
    public RelayRate relay(String relay) {
        RelayRate rate = byName.get(relay);
        if (rate == null) {
            throw new IllegalArgumentException("relay " + relay + " is not on this run's route");
        }
        return rate;
    }

    /**
     * The share of the recipients each relay of the route takes now, in route order (its weight, 0
     * for one that is down, at its daily cap or a standby): the campaign's own rate is divided among
     * them by those shares, and the route's rate ({@link #runRate}) follows.
     */
    public void routed(int[] effective) {
        routed = effective.clone();
        if (campaignCap <= 0) {
            return;
        }
        long total = 0;
        for (int w : effective) {
            total += w;
        }
        for (int i = 0; i < effective.length; i++) {
            // A relay with no share now sends at most a probe: the whole cap bounds it.
            relays.get(i).capAt(total == 0 || effective[i] == 0 ? campaignCap : campaignCap * effective[i] / total);
        }
    }

    RateAdapter adapter() {
        return adapter;
    }

    public DomainPacer domains() {
        return domains;
    }

    /**
     * The rate the whole route sends at now, all relays together, as the timebox predicts with: with
     * each relay taking its share of the recipients at its own rate, a batch lasts as long as its
     * slowest relay's part. 0 = no limit.
     */
    public double runRate() {
        int[] e = routed;
        long total = 0;
        for (int w : e) {
            total += w;
        }
        if (total == 0) {
            return relays.get(0).current();
        }
        double rate = Double.POSITIVE_INFINITY;
        for (int i = 0; i < e.length; i++) {
            double r = relays.get(i).current();
            if (e[i] > 0 && r > 0) {
                rate = Math.min(rate, r * total / e[i]);
            }
        }
        return Double.isInfinite(rate) ? 0 : rate;
    }

    /** The rate the timebox predicts with: the route's, or what the paced domains allow when only they are left. */
    public double predictedRate() {
        return domains.effectiveRate(runRate());
    }

    /** The name the adapted rate of {@code scope} carries for a reply about {@code email} through relay {@code via}. */
    public Optional<String> nameFor(TooFast.Scope scope, String email, String via) {
        return scope == TooFast.Scope.RELAY ? Optional.of(RateAdapter.relayKey(via)) : domains.groupKeyOf(email);
    }

    /**
     * Slows down for a "too fast" reply about {@code email} through relay {@code via}: that relay's
     * rate, or the rate of the recipient's domain group. False when there is nothing to slow down —
     * a domain in no group, or a rate without a limit — and the reply is then an ordinary deferral.
     */
    public boolean slowDown(String email, SendResult.Throttled reply, String via) {
        String text = reply.code() + " " + reply.text();
        Optional<String> name = nameFor(reply.scope(), email, via);
        if (name.isEmpty() || !adapter.tooFast(name.get(), text, clock.instant())) {
            return false;
        }
        if (reply.scope() == TooFast.Scope.RELAY) {
            RelayRate rate = byName.get(via);
            if (rate != null) {
                rate.adapt(adapter.rate(name.get()).orElse(rate.relayRate()));
            }
        } else {
            domains.refresh(name.get());
        }
        return true;
    }
}
