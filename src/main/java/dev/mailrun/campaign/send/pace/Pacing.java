package dev.mailrun.campaign.send.pace;

import dev.mailrun.campaign.model.AdaptiveRate;
import dev.mailrun.campaign.model.DomainGroup;
import dev.mailrun.campaign.send.route.Relay;
import dev.mailrun.campaign.send.scope.SendSettings;
import dev.mailrun.campaign.store.AdaptedRateTable;
import dev.mailrun.mail.smtp.SendResult;
import dev.mailrun.mail.smtp.TooFast;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleSupplier;

/**
 * A run's pace: the rate of each relay of its route ({@link RelayRate}, one per relay, keyed by the
 * relay's name), the domain groups' ({@link DomainPacer}), and how both adapt to "too fast" replies
 * ({@link RateAdapter}). Built once per run.
 */
public final class Pacing {

    private final RateAdapter adapter;
    private final DomainPacer domains;
    private final Map<String, RelayRate> relays = new ConcurrentHashMap<>();
    private final DoubleSupplier runRate;
    private final Clock clock;

    private Pacing(RateAdapter adapter, DomainPacer domains, DoubleSupplier runRate, Clock clock) {
        this.adapter = adapter;
        this.domains = domains;
        this.runRate = runRate;
        this.clock = clock;
    }

    /** @param runRate the rate the run's route sends at now, all relays together (0: no limit) */
    public static Pacing forRoute(SendSettings settings, List<Relay> route, DoubleSupplier runRate, Clock clock) {
        RateAdapter adapter = new RateAdapter(new AdaptedRateTable());
        double fastest = 0;
        for (Relay relay : route) {
            adapter.add(RateAdapter.relayKey(relay.name()), AdaptiveRate.RELAY, relay.rate());
            fastest = Math.max(fastest, relay.rate());
        }
        for (DomainGroup g : settings.domainGroups().groups()) {
            // An uncapped group adapts from the relays' rate: the pace it had before it said "too fast".
            adapter.add(g.key(), AdaptiveRate.DOMAIN, g.rate() > 0 ? g.rate() : fastest);
        }
        return new Pacing(adapter, new DomainPacer(settings.domainGroups(), adapter), runRate, clock);
    }

    /** The rate of the relay named {@code relay} in this run, which a relay throttle lowers. */
    public void register(String relay, RelayRate rate) {
        relays.put(relay, rate);
    }

    RateAdapter adapter() {
        return adapter;
    }

    public DomainPacer domains() {
        return domains;
    }

    /** The rate the run's route sends at now, all relays together; 0 = no limit. */
    public double runRate() {
        return runRate.getAsDouble();
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
            RelayRate rate = relays.get(via);
            if (rate != null) {
                rate.adapt(adapter.rate(name.get()).orElse(rate.relayRate()));
            }
        } else {
            domains.refresh(name.get());
        }
        return true;
    }
}
