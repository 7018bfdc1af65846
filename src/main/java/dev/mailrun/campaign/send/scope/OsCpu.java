package dev.mailrun.campaign.send.scope;

import dev.mailrun.campaign.store.RunSecondTable.Cpu;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The process's and the host's CPU use, the load average and the cores, as the JVM's operating
 * system bean tells them. Sampled once a second on a daemon thread started by the first read:
 * reading the bean means reading files under /proc (and the cgroup's), which the flush thread that
 * marks recipients in flight must not wait for.
 */
final class OsCpu implements CpuGauge {

    static final OsCpu SHARED = new OsCpu();

    private volatile Cpu latest = Cpu.UNKNOWN;
    private ScheduledExecutorService sampler;   // guarded by this

    private OsCpu() {
    }

    @Override
    public Cpu read() {
        synchronized (this) {
            if (sampler == null) {
                sampler = Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, "mailrun-cpu");
                    t.setDaemon(true);
                    return t;
                });
                sampler.scheduleAtFixedRate(this::sampleNow, 0, 1, TimeUnit.SECONDS);
            }
        }
        return latest;
    }

    private void sampleNow() {
        try {
            latest = sample();
        } catch (RuntimeException e) {
            // A platform without these figures: the reading stays unknown, and sampling goes on.
            latest = Cpu.UNKNOWN;
        }
    }

    private static Cpu sample() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        double load = os.getSystemLoadAverage();
        Optional<Double> process = Optional.empty();
        Optional<Double> host = Optional.empty();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            process = share(sun.getProcessCpuLoad());
            host = share(sun.getCpuLoad());
        }
        return new Cpu(process, host, load < 0 ? Optional.empty() : Optional.of(load), os.getAvailableProcessors());
    }

    /** A share of all cores, 0–1; negative or NaN where the JVM cannot tell it. */
    private static Optional<Double> share(double value) {
        return value >= 0 && value <= 1 ? Optional.of(value) : Optional.empty();
    }
}
