package dev.mailrun.metrics;

import dev.mailrun.campaign.send.scope.SendEvents;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/** The sending path's events as meters: messages by outcome, SMTP replies by class, permit waits, relay share, connections. */
final class SendMeters implements SendEvents {

    private final MeterRegistry registry;
    private final Map<String, AtomicReference<double[]>> rates = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> connections = new ConcurrentHashMap<>();
    /** Per relay: the pool's target and ceiling at its last batch. */
    private final Map<String, java.util.concurrent.atomic.AtomicIntegerArray> sizing = new ConcurrentHashMap<>();
    private final Map<String, AtomicReference<Double>> adapted = new ConcurrentHashMap<>();

    private final Map<String, double[]> relayStates = new ConcurrentHashMap<>();

    SendMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void messages(long campaignId, Outcome outcome, long count) {
        Counter.builder("mailrun.messages").description("Recipients by the outcome of their attempt")
                .tag("campaign", Long.toString(campaignId)).tag("outcome", outcome.label()).register(registry)
                .increment(count);
    }

    @Override
    public void relayMessages(String relay, Outcome outcome, long count) {
        Counter.builder("mailrun.relay.messages").description("Recipients by the relay that took their attempt and its outcome")
                .tag("relay", relay).tag("outcome", outcome.label()).register(registry).increment(count);
    }

    @Override
    public void relayState(String relay, Optional<Instant> downUntil) {
        double[] state = relayStates.computeIfAbsent(relay, r -> {
            double[] holder = new double[2];
            Gauge.builder("mailrun.relay.up", holder, h -> h[0])
                    .description("1 while the relay takes traffic, 0 while it is down (as this worker last saw it)")
                    .tag("relay", r).register(registry);
            Gauge.builder("mailrun.relay.down.until.timestamp.seconds", holder, h -> h[1])
                    .description("When a relay that is down gets its probe; 0 while it is up").tag("relay", r).register(registry);
            return holder;
        });
        synchronized (state) {
            state[0] = downUntil.isPresent() ? 0 : 1;
            state[1] = downUntil.map(u -> u.toEpochMilli() / 1000.0).orElse(0.0);
        }
    }

    @Override
    public void smtpReply(String relay, OptionalInt code) {
        String type = code.isEmpty() ? "none" : (code.getAsInt() / 100) + "xx";
        Counter.builder("mailrun.smtp.replies").description("Relay replies to messages by class; none: no reply")
                .tag("relay", relay).tag("class", type).register(registry).increment();
    }

    @Override
    public void permitWaited(String relay, Duration waited) {
        Timer.builder("mailrun.rate.limiter.wait").description("Time a message waited for its rate-limiter permit")
                .tag("relay", relay).register(registry).record(waited);
    }

    @Override
    public void relayShare(String relay, double share, double configured) {
        rates.computeIfAbsent(relay, r -> {
            AtomicReference<double[]> holder = new AtomicReference<>(new double[2]);
            Gauge.builder("mailrun.relay.rate.share", holder, h -> h.get()[0])
                    .description("This worker's current share of the relay rate (messages/s; 0 = unlimited)")
                    .tag("relay", r).register(registry);
            Gauge.builder("mailrun.relay.rate.configured", holder, h -> h.get()[1])
                    .description("smtp.rate (messages/s; 0 = unlimited)").tag("relay", r).register(registry);
            return holder;
        }).set(new double[] {share, configured});
    }

    @Override
    public void adaptedRates(String relay, Map<String, Double> rates) {
        rates.forEach((name, rate) -> adapted.computeIfAbsent(name, n -> {
            AtomicReference<Double> holder = new AtomicReference<>(rate);
            Gauge.builder("mailrun.rate.adapted", holder, AtomicReference::get)
                    .description("A rate in total as adapted to too-fast replies (messages/s): relay:<host:port> or domain:<group>")
                    .tag("name", n).register(registry);
            return holder;
        }).set(rate));
    }

    @Override
    public void tooFast(String name) {
        Counter.builder("mailrun.smtp.too.fast").description("Too-fast replies that slowed a rate down; the recipient was requeued")
                .tag("name", name).register(registry).increment();
    }

    @Override
    public void connectionOpened(String relay) {
        open(relay).incrementAndGet();
    }

    @Override
    public void connectionClosed(String relay) {
        open(relay).decrementAndGet();
    }

    @Override
    public void messageTimed(String relay, Duration took) {
        Timer.builder("mailrun.smtp.message").description(
                        "Time a message took on its SMTP connection, MAIL FROM to the reply after its body (round trips included)")
                .tag("relay", relay).register(registry).record(took);
    }

    @Override
    public void connectionsSized(String relay, int target, int ceiling) {
        java.util.concurrent.atomic.AtomicIntegerArray values = sizing.computeIfAbsent(relay, r -> {
            java.util.concurrent.atomic.AtomicIntegerArray v = new java.util.concurrent.atomic.AtomicIntegerArray(2);
            Gauge.builder("mailrun.smtp.connections.target", v, a -> a.get(0))
                    .description("Connections this worker's pool to the relay sizes itself to for the rate")
                    .tag("relay", r).register(registry);
            Gauge.builder("mailrun.smtp.connections.ceiling", v, a -> a.get(1))
                    .description("The most connections this worker's pool may open to the relay (smtp.max-connections, or the relay's limit)")
                    .tag("relay", r).register(registry);
            return v;
        });
        values.set(0, target);
        values.set(1, ceiling);
    }

    private AtomicInteger open(String relay) {
        return connections.computeIfAbsent(relay, r -> registry.gauge("mailrun.smtp.connections.open",
                io.micrometer.core.instrument.Tags.of("relay", r), new AtomicInteger()));
    }
}
