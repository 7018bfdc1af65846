package dev.mailrun.health;

import dev.mailrun.db.Migrations;
import dev.mailrun.scheduler.WorkerHeartbeat;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this process can do its work, as {@code /health/ready} and {@code mailrun_ready} tell it:
 * <ol>
 *   <li>{@code database}: a connection from the pool answers {@code SELECT 1}, within {@link #DATABASE_TIMEOUT};</li>
 *   <li>{@code schema}: every migration in {@code sql/} is applied (the check every command makes);</li>
 *   <li>{@code scheduler} (worker only): the tick loop's heartbeat is at most {@link WorkerHeartbeat#MAX_AGE} old;</li>
 *   <li>{@code relays} (when given {@link #withRelayNotes}): up whatever it finds — workers that disagree
 *       on a relay's settings do not stop this one working — but its detail names them, one relay
 *       each, "; " apart.</li>
 * </ol>
 * The checks run once per {@link WorkerHeartbeat#PERIOD} on a thread of their own (and on
 * {@link #refresh()}); probes read the last result, so a probe never waits for the database and the
 * answer turns within one heartbeat period of a change. A result that has not been renewed for three
 * periods (the checking thread is stuck) counts as down.
 */
public final class Readiness implements AutoCloseable {

    static final Duration DATABASE_TIMEOUT = Duration.ofSeconds(3);
    private static final Logger log = LoggerFactory.getLogger(Readiness.class);

    private final DataSource dataSource;
    private final Migrations migrations;
    private final Optional<WorkerHeartbeat> heartbeat;
    private final Clock clock;
    private final Optional<Notes> relayNotes;
    private final ExecutorService database = Executors.newSingleThreadExecutor(daemon("mailrun-ready-db"));
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(daemon("mailrun-ready"));
    private Future<Optional<String>> pending;    // guarded by this: a database check still under way
    private Instant pendingSince;                // guarded by this
    private volatile ProbeResult last;

    /** What a check reads from the database: one line per thing worth telling, none when all is well. */
    @FunctionalInterface
    public interface Notes {
        List<String> read() throws Exception;
    }

    public Readiness(DataSource dataSource, Optional<WorkerHeartbeat> heartbeat, Clock clock) {
        this(dataSource, heartbeat, clock, Optional.empty());
    }

    private Readiness(DataSource dataSource, Optional<WorkerHeartbeat> heartbeat, Clock clock, Optional<Notes> relayNotes) {
        this.dataSource = dataSource;
        this.migrations = new Migrations(dataSource);
        this.heartbeat = heartbeat;
        this.clock = clock;
        this.relayNotes = relayNotes;
    }

    /** The same checks, and {@code relays}: {@code notes} names the relays whose workers disagree on their settings. */
    public Readiness withRelayNotes(Notes notes) {
        return new Readiness(dataSource, heartbeat, clock, Optional.of(notes));
    }

    /** Runs the checks every heartbeat period from now on. */
    public Readiness start() {
        long period = WorkerHeartbeat.PERIOD.toMillis();
        timer.scheduleWithFixedDelay(this::refreshQuietly, 0, period, TimeUnit.MILLISECONDS);
        return this;
    }

    /** Runs every check now (the database one bounded by {@link #DATABASE_TIMEOUT}) and keeps the result. */
    synchronized ProbeResult refresh() {
        List<Check> checks = new ArrayList<>(checkDatabase());
        heartbeat.ifPresent(h -> checks.add(scheduler(h)));
        if (relayNotes.isPresent() && checks.get(0).up()) {
            checks.add(relays(relayNotes.get()));
        }
        ProbeResult result = new ProbeResult(checks, clock.instant());
        ProbeResult before = last;
        if (before == null && !result.up()) {
            // Not ready at start is the normal way in (the tick loop has not beaten yet), not news.
            log.info("Readiness: starting; waiting for {}", result.checks().stream().filter(c -> !c.up())
                    .map(c -> c.name() + (c.detail().isEmpty() ? "" : " (" + c.detail() + ")"))
                    .collect(java.util.stream.Collectors.joining(", ")));
        } else if (before == null || before.up() != result.up()) {
            log.info("Readiness is now {}: {}", result.up() ? "UP" : "DOWN", result.describe());
        }
        last = result;
        return result;
    }

    /** The last result; down when there is none yet or it is older than three heartbeat periods. */
    public ProbeResult ready() {
        ProbeResult r = last;
        Instant now = clock.instant();
        if (r == null) {
            return new ProbeResult(List.of(Check.down("checks", "not run yet")), now);
        }
        if (r.at().plus(WorkerHeartbeat.PERIOD.multipliedBy(3)).isBefore(now)) {
            List<Check> checks = new ArrayList<>(r.checks());
            checks.add(Check.down("checks", "last run at " + r.at() + ", more than three periods ago"));
            return new ProbeResult(checks, r.at());
        }
        return r;
    }

    /** Alive: for a worker, its tick loop still beats (whatever the database does); otherwise always. */
    public ProbeResult live() {
        return new ProbeResult(heartbeat.map(h -> List.of(scheduler(h))).orElse(List.of()), clock.instant());
    }

    private Check scheduler(WorkerHeartbeat h) {
        return h.isFresh()
                ? Check.up("scheduler", "tick loop heartbeat at " + h.last().orElseThrow())
                : Check.down("scheduler", h.last().map(l -> "no tick loop heartbeat since " + l)
                        .orElse("the tick loop has not started"));
    }

    /** Up with what {@code notes} found; a reading that fails or takes too long says so, and stays up. */
    private Check relays(Notes notes) {
        Future<List<String>> reading = database.submit(notes::read);
        try {
            List<String> found = reading.get(DATABASE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            return Check.up("relays", found.isEmpty() ? "every worker gives each relay the same settings" : String.join("; ", found));
        } catch (TimeoutException e) {
            reading.cancel(true);
            return Check.up("relays", "not read: the database took over " + DATABASE_TIMEOUT.toSeconds() + " s");
        } catch (ExecutionException e) {
            return Check.up("relays", "not read: " + e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Check.up("relays", "not read: interrupted");
        }
    }

    /** The database and schema checks; at most one runs at a time, and nobody waits longer than the timeout for it. */
    private List<Check> checkDatabase() {
        if (pending != null && pending.isDone()) {
            pending = null;   // it finished after an earlier probe gave up on it: its answer is out of date
        }
        if (pending == null) {
            pending = database.submit(this::queryDatabase);
            pendingSince = clock.instant();
        }
        try {
            Optional<String> problem = pending.get(DATABASE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            pending = null;
            return problem.map(p -> p.startsWith("schema: ")
                            ? List.of(Check.up("database", "answers"), Check.down("schema", p.substring(8)))
                            : List.of(Check.down("database", p), Check.down("schema", "not checked without the database")))
                    .orElse(List.of(Check.up("database", "answers"), Check.up("schema", "current")));
        } catch (TimeoutException e) {
            return List.of(Check.down("database", "no answer since " + pendingSince + " (waiting at most "
                    + DATABASE_TIMEOUT.toSeconds() + " s per check)"), Check.down("schema", "not checked without the database"));
        } catch (ExecutionException e) {
            pending = null;
            return List.of(Check.down("database", String.valueOf(e.getCause())), Check.down("schema", "not checked"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of(Check.down("database", "check interrupted"));
        }
    }

    /** Empty when fine; otherwise the problem, one line ("schema: …" for an out-of-date schema). */
    private Optional<String> queryDatabase() {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT 1")) {
            ps.setQueryTimeout((int) DATABASE_TIMEOUT.toSeconds());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
            }
        } catch (Exception e) {
            String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return Optional.of(m.lines().findFirst().orElse(m));
        }
        try {
            Migrations.SchemaStatus status = migrations.status();
            return status.isCurrent() ? Optional.empty() : Optional.of("schema: at version " + status.current()
                    + ", " + status.pending() + " migration(s) pending; run: mailrun db migrate");
        } catch (RuntimeException e) {
            return Optional.of("schema: cannot be read (" + e.getMessage() + ")");
        }
    }

    private void refreshQuietly() {
        try {
            refresh();
        } catch (RuntimeException e) {
            log.warn("Readiness checks failed: {}", e.toString());
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    @Override
    public void close() {
        timer.shutdownNow();
        database.shutdownNow();
    }
}
