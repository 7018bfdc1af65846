package dev.mailrun.mail.smtp;

import java.util.List;
import java.util.Optional;

/**
 * Hands out a batch's items in order, one at a time, under one lock; once halted (fatal failure,
 * stop, deadline) it hands out nothing more, and the rest is reported as not attempted.
 */
final class BatchCursor<T> {

    private final List<? extends T> items;
    private int next;
    private boolean halted;

    BatchCursor(List<? extends T> items) {
        this.items = items;
    }

    synchronized Optional<T> next() {
        if (halted || next >= items.size()) {
            return Optional.empty();
        }
        return Optional.of(items.get(next++));
    }

    /** Items not yet handed out; 0 once halted. */
    synchronized int left() {
        return halted ? 0 : items.size() - next;
    }

    synchronized void halt() {
        halted = true;
    }

    synchronized boolean halted() {
        return halted;
    }

    /** The items never handed out; call after all workers finished. */
    synchronized List<? extends T> remaining() {
        halted = true;
        return items.subList(next, items.size());
    }
}
