package dev.mailrun.metrics;

import dev.mailrun.events.DeliveryListener;
import dev.mailrun.events.EventLog;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The events' meters: counters of events written (taken from the outbox), delivered and failed by
 * endpoint and type, retried attempts and disabled endpoints; and gauges of each endpoint's backlog,
 * the age of its oldest pending event and whether it is disabled, read from the database at most
 * every {@link #MAX_AGE}.
 */
final class EventMeters implements DeliveryListener {

    private static final Logger log = LoggerFactory.getLogger(EventMeters.class);
    static final Duration MAX_AGE = Duration.ofSeconds(5);

    private final MeterRegistry registry;
    private final EventLog events;
    private final Clock clock;
    private final MultiGauge backlog;
    private final MultiGauge oldest;
    private final MultiGauge disabled;
    private Instant readAt;

    EventMeters(MeterRegistry registry, EventLog events, Clock clock) {
        this.registry = registry;
        this.events = events;
        this.clock = clock;
        backlog = MultiGauge.builder("mailrun.events.backlog").description("Pending deliveries by endpoint").register(registry);
        oldest = MultiGauge.builder("mailrun.events.oldest.pending.age").baseUnit("seconds")
                .description("Age of the oldest event pending for the endpoint").register(registry);
        disabled = MultiGauge.builder("mailrun.events.endpoint.disabled")
                .description("1 when the endpoint was disabled after failing for events.<name>.disable-after").register(registry);
    }

    @Override
    public void written(String type, long n) {
        Counter.builder("mailrun.events.written").tag("type", type).description("Events taken from the outbox for delivery")
                .register(registry).increment(n);
    }

    @Override
    public void delivered(String endpoint, String type, long n) {
        Counter.builder("mailrun.events.delivered").tags("endpoint", endpoint, "type", type)
                .description("Events delivered (answered 2xx)").register(registry).increment(n);
    }

    @Override
    public void failed(String endpoint, String type, long n) {
        Counter.builder("mailrun.events.failed").tags("endpoint", endpoint, "type", type)
                .description("Events refused for good (4xx other than 408 and 429)").register(registry).increment(n);
    }

    @Override
    public void retried(String endpoint) {
        Counter.builder("mailrun.events.attempts.failed").tag("endpoint", endpoint)
                .description("Delivery attempts that failed and are tried again").register(registry).increment();
    }

    @Override
    public void disabled(String endpoint) {
        Counter.builder("mailrun.events.endpoint.disabled.count").tag("endpoint", endpoint)
                .description("Times the endpoint was disabled").register(registry).increment();
    }

    @Override
    public void expiredUndelivered(long n) {
        Counter.builder("mailrun.events.expired.undelivered").description("Events removed by events.retention before delivery")
                .register(registry).increment(n);
    }

    /** Reads the database unless the last reading is younger than {@link #MAX_AGE}. */
    synchronized void refreshIfDue() {
        Instant now = clock.instant();
        if (readAt != null && now.isBefore(readAt.plus(MAX_AGE))) {
            return;
        }
        readAt = now;
        List<EventLog.EndpointStatus> states;
        try {
            states = events.endpoints();
        } catch (SQLException | RuntimeException e) {
            log.warn("Event gauges keep their last reading: the database could not be read ({})", e.toString());
            return;
        }
        List<MultiGauge.Row<?>> backlogRows = new ArrayList<>();
        List<MultiGauge.Row<?>> oldestRows = new ArrayList<>();
        List<MultiGauge.Row<?>> disabledRows = new ArrayList<>();
        for (EventLog.EndpointStatus s : states) {
            Tags tags = Tags.of("endpoint", s.name());
            backlogRows.add(MultiGauge.Row.of(tags, s.pending()));
            oldestRows.add(MultiGauge.Row.of(tags, s.oldestPending().map(t -> Math.max(0, Duration.between(t, now).toMillis()) / 1000.0)
                    .orElse(0.0)));
            disabledRows.add(MultiGauge.Row.of(tags, s.disabledAt().isPresent() ? 1 : 0));
        }
        backlog.register(backlogRows, true);
        oldest.register(oldestRows, true);
        disabled.register(disabledRows, true);
    }
}
