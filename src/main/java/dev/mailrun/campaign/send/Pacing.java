package dev.mailrun.campaign.send;

import dev.mailrun.campaign.model.AdaptiveRate;

import dev.mailrun.campaign.model.DomainGroup;

import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.store.AdaptedRateTable;
import dev.mailrun.mail.smtp.SendResult;
import dev.mailrun.mail.smtp.TooFast;
import java.time.Clock;
import java.util.Optional;

/**
 * A run's pace: the relay's rate ({@link RelayRate}), the domain groups' ({@link DomainPacer}), and
 * how both adapt to "too fast" replies ({@link RateAdapter}). Built once per run.
 */
final class Pacing {

    private final RelayRate rate;
    private final RateAdapter adapter;
    private final DomainPacer domains;
    private final String relayKey;
    private final Clock clock;

    private Pacing(RelayRate rate, RateAdapter adapter, DomainPacer domains, String relay, Clock clock) {
        this.rate = rate;
        this.adapter = adapter;
        this.domains = domains;
        this.relayKey = RateAdapter.relayKey(relay);
        this.clock = clock;
    }

    static Pacing forRun(SendSettings settings, Campaign campaign, Clock clock) {
        RelayRate rate = RelayRate.forRun(settings, campaign);
        RateAdapter adapter = new RateAdapter(new AdaptedRateTable());
        adapter.add(RateAdapter.relayKey(settings.relay()), AdaptiveRate.RELAY, settings.relayRate());
        for (DomainGroup g : settings.domainGroups().groups()) {
            // An uncapped group adapts from the relay's rate: the pace it had before it said "too fast".
            adapter.add(g.key(), AdaptiveRate.DOMAIN, g.rate() > 0 ? g.rate() : settings.relayRate());
        }
        return new Pacing(rate, adapter, new DomainPacer(settings.domainGroups(), adapter), settings.relay(), clock);
    }

    RelayRate rate() {
        return rate;
    }

    RateAdapter adapter() {
        return adapter;
    }

    DomainPacer domains() {
        return domains;
    }

    String relayKey() {
        return relayKey;
    }

    /** The rate the timebox predicts with: the run's share of the relay, or what the paced domains allow when only they are left. */
    double predictedRate() {
        return domains.effectiveRate(rate.current());
    }

    /**
     * Slows down for a "too fast" reply about {@code email}: the relay's rate, or the rate of the
     * recipient's domain group. False when there is nothing to slow down — a domain in no group, or
     * a rate without a limit — and the reply is then an ordinary transient failure.
     */
    boolean slowDown(String email, SendResult.Throttled reply) {
        String text = reply.code() + " " + reply.text();
        if (reply.scope() == TooFast.Scope.RELAY) {
            if (!adapter.tooFast(relayKey, text, clock.instant())) {
                return false;
            }
            rate.adapt(adapter.rate(relayKey).orElse(rate.configured()));
            return true;
        }
        Optional<String> group = domains.groupKeyOf(email);
        if (group.isEmpty() || !adapter.tooFast(group.get(), text, clock.instant())) {
            return false;
        }
        domains.refresh(group.get());
        return true;
    }
}
