package dev.mailrun.scheduler;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One claimed run: the handler's {@link RunContext}, and the state the scheduler finishes it with. */
final class LiveRun implements RunContext {

    private static final Logger log = LoggerFactory.getLogger(LiveRun.class);

    private final DataSource dataSource;
    private final TaskTable tasks;
    private final TaskTable.DueTask task;
    private final String token;
    private final Instant slot;
    private final Instant deadline;
    private final Duration lease;
    private final Clock clock;
    private final Metadata metadata;
    private final int failuresBefore;

    private volatile boolean shutdownRequested;
    private volatile boolean leaseLost;
    private volatile boolean finished;
    private volatile Instant nextRunAt;
    private volatile boolean disable;
    private volatile RunReport report = RunReport.empty();
    private volatile RunOutcome declared;

    LiveRun(DataSource dataSource, TaskTable tasks, TaskTable.DueTask task, String token, Instant slot,
            Instant deadline, Duration lease, Clock clock, TaskTable.Claimed claimed) {
        this.dataSource = dataSource;
        this.tasks = tasks;
        this.task = task;
        this.token = token;
        this.slot = slot;
        this.deadline = deadline;
        this.lease = lease;
        this.clock = clock;
        this.metadata = claimed.metadata();
        this.failuresBefore = claimed.consecutiveFailures();
    }

    @Override
    public long taskId() {
        return task.id();
    }

    @Override
    public String taskName() {
        return task.name();
    }

    @Override
    public String runToken() {
        return token;
    }

    @Override
    public Instant scheduledFor() {
        return slot;
    }

    @Override
    public Duration interval() {
        return task.interval();
    }

    @Override
    public Instant deadline() {
        return deadline;
    }

    @Override
    public Clock clock() {
        return clock;
    }

    @Override
    public Metadata metadata() {
        return metadata;
    }

    @Override
    public boolean checkpoint() throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return checkpoint(c);
        }
    }

    @Override
    public boolean checkpoint(Connection connection) throws SQLException {
        return holds(tasks.checkpoint(connection, task.id(), token, metadata.toJson(), lease));
    }

    @Override
    public boolean extendLease(Connection connection) throws SQLException {
        return holds(tasks.heartbeat(connection, task.id(), token, lease));
    }

    @Override
    public boolean heartbeat() throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return holds(tasks.heartbeat(c, task.id(), token, lease));
        }
    }

    /** The scheduler's periodic heartbeat: failures are logged, the next period tries again. */
    void heartbeatQuietly() {
        if (finished) {
            return;
        }
        try {
            if (!heartbeat() && !finished) {
                log.warn("Task '{}' run {} lost its lease: another worker took it over; asking the handler to stop",
                        task.name(), token);
            }
        } catch (SQLException | RuntimeException e) {
            log.warn("Heartbeat of task '{}' run {} failed ({}); retrying next period", task.name(), token, e.toString());
        }
    }

    /** Shortens the lease to now so another tick can take over at once (shutdown past its grace). */
    void expireLeaseQuietly() {
        try (Connection c = dataSource.getConnection()) {
            tasks.expireLease(c, task.id(), token);
        } catch (SQLException | RuntimeException e) {
            log.warn("Could not release the lease of task '{}' run {} ({}); it expires on its own by its lease_until",
                    task.name(), token, e.toString());
        }
    }

    private boolean holds(int rows) {
        if (rows == 0 && !finished) {
            leaseLost = true;
        }
        return rows == 1;
    }

    @Override
    public boolean stopRequested() {
        return shutdownRequested || leaseLost;
    }

    @Override
    public boolean leaseLost() {
        return leaseLost;
    }

    @Override
    public void runNextAt(Instant at) {
        this.nextRunAt = Objects.requireNonNull(at, "at");
    }

    @Override
    public void disableAfterThisRun() {
        this.disable = true;
    }

    @Override
    public void idle() {
        this.declared = RunOutcome.IDLE;
    }

    @Override
    public void blocked() {
        this.declared = RunOutcome.BLOCKED;
    }

    @Override
    public void report(RunReport report) {
        this.report = Objects.requireNonNull(report, "report");
    }

    void requestShutdown() {
        shutdownRequested = true;
    }

    boolean shutdownRequested() {
        return shutdownRequested;
    }

    void markFinished() {
        finished = true;
    }

    TaskTable.DueTask task() {
        return task;
    }

    Optional<Instant> nextRunOverride() {
        return Optional.ofNullable(nextRunAt);
    }

    boolean disableRequested() {
        return disable;
    }

    int failuresBefore() {
        return failuresBefore;
    }

    /** What the handler said of its run ({@link #idle()}, {@link #blocked()}); empty: nothing, a success. */
    Optional<RunOutcome> declaredOutcome() {
        return Optional.ofNullable(declared);
    }

    RunReport lastReport() {
        return report;
    }
}
