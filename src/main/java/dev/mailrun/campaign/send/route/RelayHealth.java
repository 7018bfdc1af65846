package dev.mailrun.campaign.send.route;

import dev.mailrun.campaign.store.RelayStateTable.State;
import dev.mailrun.campaign.store.RelayStateTable;
import dev.mailrun.db.Transactions;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run's view of the health of its route's relays, kept in step with {@code relay_state}, which
 * every worker and campaign shares.
 *
 * <ol>
 *   <li>A relay is <b>down</b> once it could not be reached, refused AUTH or TLS, or deferred (4xx)
 *       more than half of its last {@link #WINDOW} attempts in this run (at least {@link #MIN_ATTEMPTS}
 *       of them): marked in the table until now + {@link BackOff#after} its downs in a row.</li>
 *   <li>Once that instant has passed, one run takes the relay's probe (a conditional UPDATE) and sends
 *       it one message. Delivered, or refused for its recipient (5xx), it is up again; otherwise it
 *       is down again for twice as long. Other runs leave it alone meanwhile.</li>
 *   <li>The view is re-read from the table every {@link #REFRESH} (by the flush thread), so a relay
 *       another run found down or brought back changes this run's routing within a second.</li>
 *   <li>A down mark belongs to the relay's configuration ({@link RelayFingerprint}): a run reads,
 *       probes and marks only the row of its own. A relay re-pointed to another host or port starts
 *       fresh (its new address has no mark), and two workers that configure one relay name
 *       differently keep their marks apart instead of clearing each other's.</li>
 * </ol>
 * A run can send as long as one relay is up or one's probe is free for it ({@link #sendable}); a
 * relay whose back-off has passed is not up, but it does not stop a run either: that run probes it.
 * Instants come from the run's clock, so tests move time instead of waiting for it.
 *
 * <p>Over 250 lines as one piece: the up/down view, the probe claim and the down mark of a relay work on
 * one row and one in-memory state; apart, a mark and a probe could disagree.
 */
public final class RelayHealth {

    /** Told when this run sees a relay go down or come back. */
    public interface Listener {
        Listener NONE = (relay, downUntil, reason) -> { };

        /** {@code downUntil} empty: the relay is up. */
        void changed(String relay, Optional<Instant> downUntil, Optional<String> reason);
    }

    static final int WINDOW = 20;
    static final int MIN_ATTEMPTS = 10;
    static final Duration REFRESH = Duration.ofSeconds(1);
    /** How long a run may hold a probe before another may take it (the prober died, or its message hangs). */
    static final Duration PROBE_HOLD = Duration.ofMinutes(2);

    private static final Logger log = LoggerFactory.getLogger(RelayHealth.class);

    private final DataSource dataSource;
    private final RelayStateTable table = new RelayStateTable();
    private final Clock clock;
    private final String holder;
    private final List<String> relays;
    private final Map<String, String> configs;
    private final Listener listener;
    private final Map<String, State> states = new LinkedHashMap<>();
    private final Map<String, Boolean> probing = new HashMap<>();
    private final Map<String, Deque<Boolean>> recent = new HashMap<>();
    private Instant lastRefresh = Instant.MIN;

    /**
     * @param holder  this run's token: who holds a probe
     * @param configs the route's relays, in its order, each with the fingerprint of its configuration
     *                here ({@link RelayFingerprint}): a down mark made under another one is dropped
     */
    public RelayHealth(DataSource dataSource, Clock clock, String holder, Map<String, String> configs, Listener listener) {
        this.dataSource = dataSource;
        this.clock = clock;
        this.holder = holder;
        this.configs = Collections.unmodifiableMap(new LinkedHashMap<>(configs));
        this.relays = List.copyOf(configs.keySet());
        this.listener = listener;
        this.relays.forEach(r -> {
            states.put(r, State.up(r));
            recent.put(r, new ArrayDeque<>());
        });
    }

    /** Reads every relay's state from the table: the row of the relay under this run's configuration of it. */
    public void refresh() throws SQLException {
        Instant now = clock.instant();
        Map<String, State> read = Transactions.inTransaction(dataSource, c -> table.read(c, configs));
        synchronized (this) {
            lastRefresh = now;
            read.forEach(this::take);
        }
    }

    /** {@link #refresh} when a second has passed since the last. */
    public void refreshIfDue() throws SQLException {
        boolean due;
        synchronized (this) {
            due = !clock.instant().isBefore(lastRefresh.plus(REFRESH));
        }
        if (due) {
            refresh();
        }
    }

    /** True when the relay takes traffic: not down (a relay being probed is still down). */
    public synchronized boolean up(String relay) {
        return states.get(relay).downUntil().isEmpty();
    }

    /** True when no relay of the route is up (one being probed is not up yet). */
    public synchronized boolean allDown() {
        return relays.stream().noneMatch(r -> states.get(r).downUntil().isEmpty());
    }

    /**
     * True when the run can send something now: a relay is up, or one's back-off has passed and its
     * probe is free for this run (or already this run's). False only when every relay is down and
     * none can be probed by this run now: the run then ends, and a later one probes.
     */
    public synchronized boolean sendable() {
        Instant now = clock.instant();
        return relays.stream().anyMatch(r -> {
            State st = states.get(r);
            return st.downUntil().isEmpty() || probing.containsKey(r)
                    || (st.probeDue(now) && !st.probedByOther(holder, now));
        });
    }

    /** When a relay that is down may take its probe; empty when it is up. */
    public synchronized Optional<Instant> downUntil(String relay) {
        return states.get(relay).downUntil();
    }

    /**
     * The relays that are not up, for the run's summary and its log line:
     * "primary down until 2026-11-24T10:00:30Z (cannot be reached: …); backup down until …", or,
     * once a relay's back-off has passed, "backup probe due since …" (or "being probed by another run").
     */
    public synchronized String describeDown() {
        Instant now = clock.instant();
        List<String> parts = new ArrayList<>();
        for (String r : relays) {
            State st = states.get(r);
            if (st.downUntil().isEmpty()) {
                continue;
            }
            Instant until = st.downUntil().get();
            String state = until.isAfter(now) ? " down until " + until
                    : st.probedByOther(holder, now) ? " being probed by another run (its back-off ended " + until + ")"
                    : " probe due (its back-off ended " + until + ")";
            parts.add(r + state + st.reason().map(x -> " (" + x + ")").orElse(""));
        }
        return String.join("; ", parts);
    }

    /**
     * The relays this run may probe now: those whose back-off has passed and whose probe it won (or
     * already held). The run sends each of them one message.
     */
    public List<String> probesDue() throws SQLException {
        Instant now = clock.instant();
        List<String> due;
        synchronized (this) {
            due = relays.stream().filter(r -> states.get(r).downUntil().filter(u -> !u.isAfter(now)).isPresent()).toList();
        }
        List<String> won = new ArrayList<>();
        for (String relay : due) {
            boolean claimed = Transactions.inTransaction(dataSource,
                    c -> table.claimProbe(c, relay, configs.get(relay), holder, now, now.plus(PROBE_HOLD)));
            if (claimed) {
                synchronized (this) {
                    probing.put(relay, true);
                }
                won.add(relay);
            }
        }
        if (won.size() < due.size()) {
            // Another run holds a probe this view thought free: read who, so that the stop check and
            // the run's summary see it being probed instead of waiting to be.
            refresh();
        }
        return won;
    }

    /** The probe message went through (delivered or refused for its recipient): the relay is up again. */
    public void probeSucceeded(String relay) throws SQLException {
        Instant now = clock.instant();
        synchronized (this) {
            probing.remove(relay);
        }
        boolean up = Transactions.inTransaction(dataSource, c -> table.markUp(c, relay, configs.get(relay), holder, now));
        if (up) {
            log.info("Relay {} is back: the probe message went through", relay);
            synchronized (this) {
                take(relay, State.up(relay));
                recent.get(relay).clear();
            }
        } else {
            refresh();
        }
    }

    /** Records one attempt through an up relay; marks it down when most recent attempts were deferred. */
    public void attempted(String relay, boolean deferred) throws SQLException {
        String reason = null;
        synchronized (this) {
            Deque<Boolean> window = recent.get(relay);
            window.addLast(deferred);
            if (window.size() > WINDOW) {
                window.removeFirst();
            }
            long failed = window.stream().filter(b -> b).count();
            if (deferred && window.size() >= MIN_ATTEMPTS && failed * 2 > window.size()) {
                reason = failed + " of its last " + window.size() + " attempts were deferred (4xx)";
            }
        }
        if (reason != null) {
            markDown(relay, reason);
        }
    }

    /**
     * Marks the relay down for {@link BackOff#after} its downs in a row, unless it already is (another
     * connection, run or worker got there first: their mark stands and the back-off grows once).
     */
    public void markDown(String relay, String reason) throws SQLException {
        Instant now = clock.instant();
        boolean wasProbing;
        synchronized (this) {
            wasProbing = probing.remove(relay) != null;
            if (!wasProbing && states.get(relay).downUntil().isPresent()) {
                return;
            }
        }
        boolean[] wrote = new boolean[1];
        State marked = Transactions.inTransaction(dataSource, c -> {
            wrote[0] = false;
            State row = table.lock(c, relay, configs.get(relay), now);
            boolean markedByOther = row.downUntil().filter(u -> u.isAfter(now)).isPresent()
                    && !row.probeHolder().filter(holder::equals).isPresent();
            if (markedByOther) {
                return row;
            }
            int downs = row.downs() + 1;
            Instant until = now.plus(BackOff.after(downs));
            table.markDown(c, relay, until, downs, reason, configs.get(relay), now);
            wrote[0] = true;
            return new State(relay, Optional.of(until), downs, Optional.of(reason), Optional.empty(), Optional.empty(),
                    Optional.of(configs.get(relay)));
        });
        synchronized (this) {
            take(relay, marked);
            recent.get(relay).clear();
        }
        if (wrote[0]) {
            log.warn("Relay {} is down until {} ({}); {}", relay, marked.downUntil().orElse(now), reason, whileDown(relay));
        }
    }

    /** What happens to the traffic of {@code relay} while it is down, for the log line that marks it. */
    private synchronized String whileDown(String relay) {
        if (relays.size() == 1) {
            return "nothing is sent through it until a probe message gets through after the back-off";
        }
        List<String> up = relays.stream().filter(r -> !r.equals(relay) && states.get(r).downUntil().isEmpty()).toList();
        return up.isEmpty()
                ? "no relay of the route is up: nothing is sent until a probe message gets through after a back-off"
                : "its recipients go through " + (up.size() == 1 ? "relay " + up.get(0) : "relays " + String.join(", ", up))
                        + " meanwhile";
    }

    /** At the end of the run: probes it held but never sent go back, so another run may take them at once. */
    public void releaseProbes() {
        List<String> held;
        synchronized (this) {
            held = List.copyOf(probing.keySet());
            probing.clear();
        }
        for (String relay : held) {
            try {
                Transactions.inTransaction(dataSource, c -> {
                    table.releaseProbe(c, relay, configs.get(relay), holder);
                    return null;
                });
            } catch (SQLException e) {
                log.warn("Could not give back the probe of relay {} (another run may take it after {}): {}", relay,
                        PROBE_HOLD, e.getMessage());
            }
        }
    }

    /** Takes a state read or written, telling the listener when up/down changed. */
    private void take(String relay, State state) {
        State before = states.put(relay, state);
        if (before == null || !before.downUntil().equals(state.downUntil())) {
            listener.changed(relay, state.downUntil(), state.reason());
        }
    }
}
