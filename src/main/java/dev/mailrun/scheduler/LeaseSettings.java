package dev.mailrun.scheduler;

import java.time.Duration;
import java.util.Objects;

/**
 * How long a run holds its task without a heartbeat, and how often it beats. A run killed outright
 * (kill -9, a lost machine) stops beating, and a tick anywhere takes its task over once {@code lease}
 * has passed since its last beat: a shorter lease recovers sooner. A run merely stalled for longer
 * than the lease (a long GC pause, a database that stopped answering) loses its task the same way
 * and can write nothing after that: every write of a run is fenced by its run token.
 *
 * @param lease     measured by the database clock from the last beat; at least {@link #MIN_LEASE}
 * @param heartbeat below a third of {@code lease}, so that two late or failed beats in a row still
 *                  leave the lease standing
 */
public record LeaseSettings(Duration lease, Duration heartbeat) {

    /** Below this, a lease is at the mercy of an ordinary pause of the JVM or the database. */
    static final Duration MIN_LEASE = Duration.ofSeconds(3);

    /** A killed run's task is free again within 30 s; a run beats every 5 s. */
    public static final LeaseSettings DEFAULT = new LeaseSettings(Duration.ofSeconds(30), Duration.ofSeconds(5));

    public LeaseSettings {
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(heartbeat, "heartbeat");
        if (lease.compareTo(MIN_LEASE) < 0) {
            throw new IllegalArgumentException("the lease must be at least " + MIN_LEASE + ", was " + lease);
        }
        NewTask.requirePositive(heartbeat, "heartbeatInterval");
        if (heartbeat.multipliedBy(3).compareTo(lease) >= 0) {
            throw new IllegalArgumentException("heartbeatInterval (" + heartbeat + ") must be below a third of "
                    + "the lease (" + lease + "), so one late heartbeat cannot lose the lease");
        }
    }
}
