package dev.mailrun.mail.smtp;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A pool's SMTP connections: which ones a batch starts with, which one joins it, and closing those
 * left unused. Connections are made on demand and opened on first use, so a pool that never grows
 * keeps its start count.
 */
final class PoolConnections {

    /** A connection the pool no longer needs is closed after this long unused. */
    static final Duration IDLE_CLOSE = Duration.ofSeconds(5);

    private final List<SmtpConnection> all = new CopyOnWriteArrayList<>();
    private final Supplier<SmtpConnection> factory;

    PoolConnections(Supplier<SmtpConnection> factory) {
        this.factory = factory;
    }

    /**
     * The connections to set to work on a new batch: {@code count} of those not at work, open ones
     * first, so that a pool capped by the relay keeps the connections the relay accepted; the pool
     * holds {@code target} connections at least (made, not opened). Those left out that sat unused
     * for {@link #IDLE_CLOSE} are closed.
     */
    List<SmtpConnection> forBatch(int count, int target, Predicate<SmtpConnection> atWork) {
        while (all.size() < target) {
            all.add(factory.get());
        }
        List<SmtpConnection> free = new ArrayList<>();
        for (SmtpConnection c : all) {
            if (!atWork.test(c)) {
                free.add(c);
            }
        }
        free.sort((a, b) -> Boolean.compare(b.isOpen(), a.isOpen()));
        List<SmtpConnection> chosen = free.subList(0, Math.min(Math.max(0, count), free.size()));
        for (SmtpConnection spare : free.subList(chosen.size(), free.size())) {
            if (spare.isOpen() && spare.idleNanos() >= IDLE_CLOSE.toNanos()) {
                spare.close();
            }
        }
        return List.copyOf(chosen);
    }

    /**
     * A connection not at work, an open one first; a new one while the pool has fewer
     * than {@code target}; else null.
     */
    SmtpConnection spare(int target, Predicate<SmtpConnection> atWork) {
        SmtpConnection closed = null;
        for (SmtpConnection c : all) {
            if (!atWork.test(c)) {
                if (c.isOpen()) {
                    return c;
                }
                closed = closed == null ? c : closed;
            }
        }
        if (closed != null) {
            return closed;
        }
        if (all.size() < target) {
            SmtpConnection fresh = factory.get();
            all.add(fresh);
            return fresh;
        }
        return null;
    }

    int open() {
        int open = 0;
        for (SmtpConnection c : all) {
            open += c.isOpen() ? 1 : 0;
        }
        return open;
    }

    /** Connections opened so far, summed over all connections (reconnects included). */
    int timesOpened() {
        return all.stream().mapToInt(SmtpConnection::timesOpened).sum();
    }

    /** Sessions taken over from an earlier pool, summed over all connections. */
    int timesAdopted() {
        return all.stream().mapToInt(SmtpConnection::timesAdopted).sum();
    }

    /** The open sessions, handed over: their connections are closed without ending them. */
    List<OpenTransport> detachAll() {
        List<OpenTransport> open = new ArrayList<>();
        all.forEach(c -> c.detach().ifPresent(open::add));
        return open;
    }

    void closeAll() {
        all.forEach(SmtpConnection::close);
    }
}
