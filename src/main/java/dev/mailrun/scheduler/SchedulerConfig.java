package dev.mailrun.scheduler;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link Scheduler} runs tasks. Immutable; validated on construction.
 *
 * @param owner             who runs here, written on the task row and in {@code task_run} (host/pid)
 * @param lease             how long a run holds its task without a heartbeat before others may take it over
 * @param heartbeatInterval how often a live run extends its lease; must be below {@code lease / 3}
 *                          (both validated as {@link LeaseSettings})
 * @param safetyMargin      the most a run's deadline may fall before the next slot: the margin itself is
 *                          derived from the task's measured lateness and release times (see
 *                          {@link dev.mailrun.timebox.SafetyMargins}), never above this bound
 * @param maxBackoff        the longest delay consecutive failures add (rounded up to whole intervals)
 * @param maxTasksPerTick   how many due tasks one tick looks at
 * @param runHistory        how long {@code task_run} rows are kept (by start time); zero keeps them forever
 * @param overlapWait       how long a tick waits, at a slot, for the previous run to release the task
 *                          before recording {@code skipped_overlap}; zero does not wait
 */
public record SchedulerConfig(String owner, Duration lease, Duration heartbeatInterval, SafetyMargin safetyMargin,
                              Duration maxBackoff, int maxTasksPerTick, Duration runHistory, Duration overlapWait) {

    /** Shorter than this and the history of a run could go while its task still refers to it. */
    static final Duration MIN_RUN_HISTORY = Duration.ofHours(1);

    public SchedulerConfig {
        if (owner == null || owner.isBlank() || owner.length() > 255) {
            throw new IllegalArgumentException("owner must be 1–255 characters, was: " + owner);
        }
        new LeaseSettings(lease, heartbeatInterval);
        Objects.requireNonNull(safetyMargin, "safetyMargin");
        NewTask.requirePositive(maxBackoff, "maxBackoff");
        if (maxTasksPerTick < 1) {
            throw new IllegalArgumentException("maxTasksPerTick must be at least 1, was " + maxTasksPerTick);
        }
        Objects.requireNonNull(runHistory, "runHistory");
        if (!runHistory.isZero() && runHistory.compareTo(MIN_RUN_HISTORY.plus(lease)) < 0) {
            throw new IllegalArgumentException("runHistory must be 0 (keep forever) or at least " + MIN_RUN_HISTORY
                    + " plus the lease, was " + runHistory);
        }
        Objects.requireNonNull(overlapWait, "overlapWait");
        if (overlapWait.isNegative() || overlapWait.compareTo(lease) >= 0) {
            throw new IllegalArgumentException("overlapWait must be 0 or more and below the lease (" + lease
                    + "), was " + overlapWait);
        }
    }

    /**
     * Lease 30 s, heartbeat every 5 s ({@link LeaseSettings#DEFAULT}), margin 10% of the interval up to 1 min, backoff up to 1 h,
     * run history kept 30 days, no wait for a previous run at the slot (the worker's configuration,
     * {@code tick.overlap-wait}, sets one).
     *
     * @param owner who runs here; a worker names its host and process ({@link #thisProcess})
     */
    public static SchedulerConfig defaults(String owner) {
        return new SchedulerConfig(owner, LeaseSettings.DEFAULT.lease(), LeaseSettings.DEFAULT.heartbeat(),
                SafetyMargin.DEFAULT, Duration.ofHours(1), 100, Duration.ofDays(30), Duration.ZERO);
    }

    public SchedulerConfig withOverlapWait(Duration value) {
        return new SchedulerConfig(owner, lease, heartbeatInterval, safetyMargin, maxBackoff, maxTasksPerTick, runHistory,
                value);
    }

    public SchedulerConfig withLease(Duration lease, Duration heartbeatInterval) {
        return new SchedulerConfig(owner, lease, heartbeatInterval, safetyMargin, maxBackoff, maxTasksPerTick, runHistory, overlapWait);
    }

    public SchedulerConfig withLease(LeaseSettings value) {
        return withLease(value.lease(), value.heartbeat());
    }

    /** The lease and heartbeat, validated together. */
    LeaseSettings leaseSettings() {
        return new LeaseSettings(lease, heartbeatInterval);
    }

    public SchedulerConfig withSafetyMargin(SafetyMargin value) {
        return new SchedulerConfig(owner, lease, heartbeatInterval, value, maxBackoff, maxTasksPerTick, runHistory, overlapWait);
    }

    SchedulerConfig withMaxBackoff(Duration value) {
        return new SchedulerConfig(owner, lease, heartbeatInterval, safetyMargin, value, maxTasksPerTick, runHistory, overlapWait);
    }

    public SchedulerConfig withRunHistory(Duration value) {
        return new SchedulerConfig(owner, lease, heartbeatInterval, safetyMargin, maxBackoff, maxTasksPerTick, value, overlapWait);
    }

    /** Resolves this machine's name. */
    interface HostLookup {
        String hostName() throws UnknownHostException;
    }

    /**
     * {@code host/pid} of this JVM, at most 255 characters (the end, which keeps the pid).
     *
     * @param fallbackHost the host where this machine's name cannot be resolved (a container without
     *                     a hosts entry for itself); the configuration passes the {@code HOSTNAME} variable
     */
    public static String thisProcess(String fallbackHost) {
        return owner(() -> InetAddress.getLocalHost().getHostName(), fallbackHost, ProcessHandle.current().pid());
    }

    static String owner(HostLookup lookup, String fallbackHost, long pid) {
        String host;
        try {
            host = lookup.hostName();
        } catch (UnknownHostException e) {
            host = fallbackHost;
        }
        String owner = host + "/" + pid;
        return owner.length() <= 255 ? owner : owner.substring(owner.length() - 255);
    }

    /**
     * The part of an interval a run may not use: {@code min(interval × fraction, max)}, and never
     * more than half the interval. A run's deadline is {@code slot + interval − margin}.
     */
    public record SafetyMargin(double fraction, Duration max) {

        static final SafetyMargin DEFAULT = new SafetyMargin(0.10, Duration.ofMinutes(1));

        public SafetyMargin {
            if (!(fraction >= 0 && fraction <= 0.5)) {
                throw new IllegalArgumentException("safety margin fraction must be within [0, 0.5], was " + fraction);
            }
            Objects.requireNonNull(max, "max");
            if (max.isNegative()) {
                throw new IllegalArgumentException("safety margin cannot be negative: " + max);
            }
        }

        /** A fixed margin (still at most half the interval). */
        public static SafetyMargin fixed(Duration margin) {
            return new SafetyMargin(0.5, margin);
        }

        public Duration of(Duration interval) {
            Duration byFraction = Duration.ofMillis((long) (interval.toMillis() * fraction));
            Duration margin = byFraction.compareTo(max) < 0 ? byFraction : max;
            Duration half = interval.dividedBy(2);
            return margin.compareTo(half) < 0 ? margin : half;
        }
    }
}
