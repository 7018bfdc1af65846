package dev.mailrun.campaign;

import java.time.Duration;
import java.time.Instant;

/** The worker's tick slots, by which a campaign's sending task is scheduled. */
final class TickSlots {

    private final Duration interval;

    TickSlots(Duration interval) {
        this.interval = interval;
    }

    Duration interval() {
        return interval;
    }

    /**
     * The slot a campaign's first run belongs to: the slot holding {@code at}, so a run that
     * begins mid-slot gets the rest of that slot as its window and still ends before the next
     * tick — unless too little of it is left (less than a quarter of the slot, or than a minute
     * for long intervals), then the next slot.
     */
    Instant first(Instant at) {
        Instant slot = start(at);
        Duration quarter = interval.dividedBy(4);
        Duration enough = quarter.compareTo(Duration.ofMinutes(1)) < 0 ? quarter : Duration.ofMinutes(1);
        Instant next = slot.plus(interval);
        return Duration.between(at, next).compareTo(enough) < 0 ? next : slot;
    }

    /** The start of the tick slot holding {@code at}. */
    Instant start(Instant at) {
        long ms = interval.toMillis();
        long epoch = at.toEpochMilli();
        return Instant.ofEpochMilli(epoch - Math.floorMod(epoch, ms));
    }
}
