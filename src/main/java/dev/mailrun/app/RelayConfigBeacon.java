package dev.mailrun.app;

import dev.mailrun.campaign.send.route.RelayConfigs;
import dev.mailrun.campaign.send.route.Relays;
import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker's record of its relays' settings ({@link RelayConfigs}), renewed every
 * {@link RelayConfigs#RENEW} from its start to its stop, so that status and readiness see which
 * workers give a relay name different settings. A renewal that fails is logged and tried again at
 * the next period: the record only informs.
 */
public final class RelayConfigBeacon implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RelayConfigBeacon.class);

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "mailrun-relay-config");
        t.setDaemon(true);
        return t;
    });

    private RelayConfigBeacon() {}

    static RelayConfigBeacon start(DataSource dataSource, String worker, Relays relays, Clock clock) {
        RelayConfigBeacon beacon = new RelayConfigBeacon();
        RelayConfigs configs = new RelayConfigs();
        beacon.timer.scheduleWithFixedDelay(() -> {
            try {
                configs.record(dataSource, worker, relays, clock.instant());
            } catch (Exception e) {
                log.warn("Could not record this worker's relay settings (tried again in {} s): {}",
                        RelayConfigs.RENEW.toSeconds(), e.toString());
            }
        }, 0, RelayConfigs.RENEW.toMillis(), TimeUnit.MILLISECONDS);
        return beacon;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
