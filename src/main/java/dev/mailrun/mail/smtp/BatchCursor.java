package dev.mailrun.mail.smtp;

import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Hands out a batch's items in order, one at a time, under one lock; once halted (fatal failure,
 * stop, deadline) it hands out nothing more, and the rest is reported as not attempted.
 */
final class BatchCursor<T> {

    private final List<? extends T> items;
    private final Predicate<? super T> unpaced;
    private int next;
    private int unpacedLeft;
    private boolean halted;

    /** @param unpaced which items no pace of their own holds back ({@link #unpacedLeft}) */
    BatchCursor(List<? extends T> items, Predicate<? super T> unpaced) {
        this.items = items;
        this.unpaced = unpaced;
        this.unpacedLeft = (int) items.stream().filter(unpaced).count();
    }

    synchronized Optional<T> next() {
        if (halted || next >= items.size()) {
            return Optional.empty();
        }
        T item = items.get(next++);
        if (unpaced.test(item)) {
            unpacedLeft--;
        }
        return Optional.of(item);
    }

    /** Items not yet handed out that no pace of their own holds back; 0 once halted. */
    synchronized int unpacedLeft() {
        return halted ? 0 : unpacedLeft;
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
