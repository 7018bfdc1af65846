package dev.mailrun.campaign.send.pace;

import dev.mailrun.campaign.store.RelayConnectionTable;
import dev.mailrun.campaign.store.RelayConnectionTable.PoolState;
import dev.mailrun.mail.smtp.ConnectionReport;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/**
 * The run's side of one relay's connections across workers. The pool sizes itself
 * ({@code ConnectionSizer}); this keeps what the pool may not know alone:
 * <ol>
 *   <li>the relay's limit learned by any worker ({@code relay_connection_limit}): when this run's
 *       pool is turned away as one too many, the limit becomes what it had open times the runs
 *       sharing the relay, written at the next renewal; every renewal reads the limit back and
 *       gives the pool its part (the limit divided among the live runs);</li>
 *   <li>how the pool is sized, written into the run's share row at every renewal for {@code
 *       campaign status}, and kept for the run's summary.</li>
 * </ol>
 * Called from the pool's threads (events) and the flush thread (renewals).
 */
public final class RelayConnections {

    private record Refused(int open, String reply) {}

    private final String relay;
    private final RelayConnectionTable table = new RelayConnectionTable();
    private final AtomicReference<Refused> refused = new AtomicReference<>();
    private volatile ConnectionReport latest;
    /** The report of the run that said the connections held the rate back, the latest such; else the latest. */
    private volatile ConnectionReport limiting;
    private volatile IntConsumer poolLimit = n -> { };
    private volatile int holders = 1;

    public RelayConnections(String relay) {
        this.relay = relay;
    }

    /** Where the run's part of the relay's limit goes: the pool's {@code limitConnections}. */
    public void attach(IntConsumer limit) {
        this.poolLimit = limit;
    }

    /** The pool sized itself for a batch. */
    public void sized(ConnectionReport report) {
        if (report.open() == 0 && latest != null) {
            // Before the batch's connections opened: nothing new to say.
            return;
        }
        latest = report;
        if (report.limitsRate()) {
            limiting = report;
        }
    }

    /** The relay refused one more connection while {@code open} of this run's were serving. */
    public void refused(int open, String reply) {
        refused.set(new Refused(open, reply));
    }

    /**
     * At a renewal, in its transaction: writes a refusal seen since the last, reads the relay's
     * limit, and writes how the pool is sized. {@code holders}: the live runs sharing the relay.
     *
     * @return this run's part of the relay's limit; empty when the relay has none
     */
    Optional<Integer> sync(Connection c, String holder, int holders) throws SQLException {
        this.holders = Math.max(1, holders);
        Refused r = refused.getAndSet(null);
        if (r != null) {
            // The others' pools are sized like this one: the relay served about this many in total.
            table.lower(c, relay, Math.max(1, r.open()) * this.holders, r.reply());
        }
        Optional<Integer> limit = table.limit(c, relay);
        ConnectionReport now = latest;
        if (now != null) {
            table.report(c, relay, holder, new PoolState(now.open(), now.target(), now.needed(), now.ceiling(),
                    now.perMessage().map(d -> (int) Math.min(Integer.MAX_VALUE, d.toMillis())), now.rate()));
        }
        return limit.map(l -> Math.max(1, l / this.holders));
    }

    /** Gives the pool its part of the relay's limit (none: {@link Integer#MAX_VALUE}). */
    void apply(Optional<Integer> part) {
        poolLimit.accept(part.orElse(Integer.MAX_VALUE));
    }

    /** For the run's summary: how the pool was sized, when it was reported at all. */
    Optional<Map<String, Object>> summary() {
        ConnectionReport r = limiting != null ? limiting : latest;
        if (r == null) {
            return Optional.empty();
        }
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("open", r.open());
        s.put("target", r.target());
        s.put("ceiling", r.ceiling());
        r.needed().ifPresent(n -> s.put("needed", n));
        r.perMessage().map(Duration::toMillis).ifPresent(ms -> s.put("ms_per_message", ms));
        r.reach(r.open()).ifPresent(reach -> s.put("reach_per_second", Math.round(reach * 10) / 10.0));
        s.put("held_back", r.limitsRate());
        if (r.limitsRate()) {
            s.put("why", r.describe());
        }
        return Optional.of(s);
    }

    /** The pool's measured time per message, for the next run to start from. */
    public Optional<Duration> perMessage() {
        ConnectionReport r = latest;
        return r == null ? Optional.empty() : r.perMessage();
    }

    public String relay() {
        return relay;
    }
}
