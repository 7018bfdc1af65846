package dev.mailrun.campaign.send.record;

import dev.mailrun.campaign.send.scope.CpuGauge;
import dev.mailrun.campaign.send.scope.Tables;
import dev.mailrun.campaign.store.RunSecondTable;
import dev.mailrun.campaign.store.RunSecondTable.Cpu;
import dev.mailrun.campaign.store.RunSecondTable.Second;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A run's time, second by second of its clock, written to {@code campaign_run_second} so that
 * {@code campaign status} can tell why a minute ran under the rate:
 * <ol>
 *   <li>sending: from the run's first message to its last (what no run covers is the time between
 *       runs). While the run goes on, its writes count up to the moment of writing; its last write
 *       takes back what came after its last message;</li>
 *   <li>waiting on the database ({@link DatabaseWaits}): while any connection waits for its
 *       recipients' in-flight marks or the run for its next batch's claim, counted once however
 *       many wait together. Only once the run sent its first message: before it, the wait is part
 *       of the run's start, which the time between runs already holds;</li>
 *   <li>the worker's CPU ({@link CpuGauge}), read at each write.</li>
 * </ol>
 * The flush thread writes about once a second ({@link #writeIfDue}), the run once more at its end
 * ({@link #close}). Thread-safe: the connections, the run's thread and the flush thread call it.
 */
public final class RunSeconds implements DatabaseWaits {

    private static final long WRITE_EVERY_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final int SENDING = 0;
    private static final int WAITING = 1;

    private final long campaignId;
    private final Clock clock;
    private final LongSupplier nanoTime;
    private final CpuGauge cpu;
    private final RunSecondTable table = new RunSecondTable();
    /** Milliseconds not written yet, by epoch second: sending, waiting. */
    private final TreeMap<Long, long[]> pending = new TreeMap<>();
    private Instant first;
    private Instant last;
    /** Sending is counted up to here. */
    private Instant countedTo;
    private int waiting;
    private Instant waitFrom;
    private long writtenAt;

    public RunSeconds(long campaignId, Clock clock, LongSupplier nanoTime, CpuGauge cpu) {
        this.campaignId = campaignId;
        this.clock = clock;
        this.nanoTime = nanoTime;
        this.cpu = cpu;
        this.writtenAt = nanoTime.getAsLong();
    }

    /** A message reached the relay and its reply came back. */
    public synchronized void messageSent() {
        Instant now = clock.instant();
        if (first == null) {
            first = now;
            countedTo = now;
        }
        if (last == null || now.isAfter(last)) {
            last = now;
        }
    }

    @Override
    public synchronized void begins() {
        if (waiting++ == 0) {
            waitFrom = clock.instant();
        }
    }

    @Override
    public synchronized void ends() {
        if (waiting == 0) {
            return;
        }
        if (--waiting == 0) {
            addWait(clock.instant());
            waitFrom = null;
        }
    }

    /** From the flush thread: writes what was counted once a second has passed since the last write. */
    public void writeIfDue(Tables tables) throws SQLException {
        long now = nanoTime.getAsLong();
        if (now - writtenAt < WRITE_EVERY_NANOS) {
            return;
        }
        writtenAt = now;
        write(tables, false);
    }

    /** At the run's end, after its last message: writes the rest and deletes the campaign's old seconds. */
    public void close(Tables tables) throws SQLException {
        write(tables, true);
    }

    private void write(Tables tables, boolean end) throws SQLException {
        Cpu reading = cpu.read();
        List<Second> rows;
        Instant now;
        synchronized (this) {
            now = clock.instant();
            if (first != null) {
                Instant upTo = end ? last : now;
                if (upTo.isAfter(countedTo)) {
                    add(countedTo, upTo, SENDING, 1);
                } else if (upTo.isBefore(countedTo)) {
                    add(upTo, countedTo, SENDING, -1);
                }
                countedTo = upTo;
            }
            if (waiting > 0) {
                addWait(now);
                waitFrom = now;
            }
            rows = drain(now, reading);
        }
        try {
            tables.inTransaction(c -> {
                table.add(c, campaignId, rows);
                if (end) {
                    table.prune(c, campaignId, now.minus(RunSecondTable.KEPT));
                }
                return null;
            });
        } catch (SQLException | RuntimeException e) {
            // Kept for the next write: a report that misses a second would show a gap between runs.
            putBack(rows);
            throw e;
        }
    }

    private void addWait(Instant to) {
        if (first == null || waitFrom == null) {
            return;
        }
        Instant from = waitFrom.isBefore(first) ? first : waitFrom;
        if (to.isAfter(from)) {
            add(from, to, WAITING, 1);
        }
    }

    private void add(Instant from, Instant to, int column, int sign) {
        long a = from.toEpochMilli();
        long b = to.toEpochMilli();
        while (a < b) {
            long second = Math.floorDiv(a, 1000);
            long until = Math.min(b, (second + 1) * 1000);
            pending.computeIfAbsent(second, s -> new long[2])[column] += sign * (until - a);
            a = until;
        }
    }

    /** The seconds not written yet, the reading on the second of {@code now}. */
    private List<Second> drain(Instant now, Cpu reading) {
        long readAt = now.getEpochSecond();
        pending.computeIfAbsent(readAt, s -> new long[2]);
        List<Second> rows = new ArrayList<>(pending.size());
        for (Map.Entry<Long, long[]> e : pending.entrySet()) {
            rows.add(new Second(Instant.ofEpochSecond(e.getKey()), (int) e.getValue()[SENDING], (int) e.getValue()[WAITING],
                    e.getKey() == readAt ? Optional.of(reading) : Optional.empty()));
        }
        pending.clear();
        return rows;
    }

    private synchronized void putBack(List<Second> rows) {
        for (Second s : rows) {
            long[] ms = pending.computeIfAbsent(s.second().getEpochSecond(), k -> new long[2]);
            ms[SENDING] += s.sendingMs();
            ms[WAITING] += s.dbWaitMs();
        }
    }
}
