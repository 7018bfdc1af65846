package dev.mailrun.metrics;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import dev.mailrun.campaign.CampaignStates;
import dev.mailrun.campaign.importing.ImportListener;
import dev.mailrun.campaign.send.scope.SendEvents;
import dev.mailrun.campaign.tracking.TrackingListener;
import dev.mailrun.scheduler.RunListener;
import dev.mailrun.events.DeliveryListener;
import dev.mailrun.events.EventLog;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * mailrun's metrics, rendered in the Prometheus text format at the admin listener's {@code /metrics}:
 * Micrometer's JVM, process and HikariCP binders plus mailrun's own (the names are listed in
 * docs/METRICS.md). The domain packages report through listener interfaces they own
 * ({@link RunListener}, {@link ImportListener}, {@link SendEvents}); the implementations here turn
 * what they are told into meters. Nothing outside this package and the wiring in {@code app} sees
 * Micrometer.
 */
public final class MailrunMetrics implements AutoCloseable {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JvmGcMetrics gc = new JvmGcMetrics();
    private final Clock clock;
    private volatile CampaignGauges campaigns;
    private volatile EventMeters events;

    public MailrunMetrics(Clock clock) {
        this.clock = clock;
        new ClassLoaderMetrics().bindTo(registry);
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
    }

    /** Adds the pool's hikaricp_* meters; a pool that is not HikariCP's is left alone. */
    public void bindPool(DataSource dataSource) {
        if (dataSource instanceof HikariDataSource pool && pool.getMetricsTrackerFactory() == null) {
            pool.setMetricsTrackerFactory(new MicrometerMetricsTrackerFactory(registry));
        }
    }

    public RunListener runs() {
        return new RunMeters(registry);
    }

    public ImportListener imports() {
        return new ImportMeters(registry);
    }

    /** The tracking endpoints' meters; call once per process (they register their counters). */
    public TrackingListener tracking() {
        return new TrackingMeters(registry);
    }

    public SendEvents sends() {
        return new SendMeters(registry);
    }

    /**
     * The campaign gauges, read from {@code states} at most every {@link CampaignGauges#MAX_AGE}: a
     * scrape in between shows the last reading.
     *
     * @param bounceThreshold {@code bounce.pause-rate}
     * @param complaintThreshold {@code bounce.complaint-pause-rate}
     */
    public void bindCampaigns(CampaignStates states, double bounceThreshold, double complaintThreshold) {
        campaigns = new CampaignGauges(registry, states, clock, bounceThreshold, complaintThreshold);
    }

    /**
     * The events' counters and gauges (backlog, oldest pending age, disabled endpoints), the gauges
     * read through {@code log} at most every 5 s; the returned listener is the dispatcher's.
     */
    public synchronized DeliveryListener bindEvents(EventLog log) {
        if (events == null) {
            events = new EventMeters(registry, log, clock);
        }
        return events;
    }

    /** {@code mailrun_scheduler_heartbeat_timestamp_seconds}: the worker loop's last heartbeat. */
    public void bindHeartbeat(Supplier<Optional<Instant>> lastBeat) {
        Gauge.builder("mailrun.scheduler.heartbeat.timestamp", () -> lastBeat.get().map(i -> i.toEpochMilli() / 1000.0)
                        .orElse(Double.NaN))
                .baseUnit("seconds").description("Last heartbeat of this worker's tick loop (unix time)").register(registry);
    }

    /** {@code mailrun_ready}: 1 when {@code /health/ready} says UP. */
    public void bindReady(BooleanSupplier ready) {
        Gauge.builder("mailrun.ready", () -> ready.getAsBoolean() ? 1 : 0)
                .description("1 when /health/ready answers UP, 0 otherwise").register(registry);
    }

    /** The Prometheus text format (version 0.0.4); refreshes the campaign gauges first when they are due. */
    public String scrape() {
        CampaignGauges c = campaigns;
        if (c != null) {
            c.refreshIfDue();
        }
        EventMeters e = events;
        if (e != null) {
            e.refreshIfDue();
        }
        return registry.scrape();
    }

    @Override
    public void close() {
        gc.close();
        registry.close();
    }
}
