package dev.mailrun.metrics;

import dev.mailrun.campaign.model.TrackingClass;
import dev.mailrun.campaign.tracking.TrackingListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Map;

/**
 * {@code mailrun_tracking_requests_total{kind, class}}: opens and clicks answered, by how they were
 * classified; {@code mailrun_tracking_dropped_total}: those not recorded because the buffer was full.
 */
final class TrackingMeters implements TrackingListener {

    private final Map<TrackingClass, Counter> opens = new EnumMap<>(TrackingClass.class);
    private final Map<TrackingClass, Counter> clicks = new EnumMap<>(TrackingClass.class);
    private final Counter dropped;

    TrackingMeters(MeterRegistry registry) {
        for (TrackingClass c : TrackingClass.values()) {
            opens.put(c, counter(registry, "open", c));
            clicks.put(c, counter(registry, "click", c));
        }
        dropped = Counter.builder("mailrun.tracking.dropped")
                .description("Opens and clicks not recorded because the tracking buffer was full")
                .register(registry);
    }

    private static Counter counter(MeterRegistry registry, String kind, TrackingClass c) {
        return Counter.builder("mailrun.tracking.requests")
                .description("Tracked opens and clicks answered, by classification")
                .tag("kind", kind).tag("class", c.dbValue())
                .register(registry);
    }

    @Override
    public void tracked(boolean click, TrackingClass trackingClass) {
        (click ? clicks : opens).get(trackingClass).increment();
    }

    @Override
    public void dropped() {
        dropped.increment();
    }
}
