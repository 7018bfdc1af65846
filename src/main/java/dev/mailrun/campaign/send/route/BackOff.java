package dev.mailrun.campaign.send.route;

import java.time.Duration;

/**
 * How long a relay stays down: 30 s the first time, doubling each time it is marked down again
 * without a successful probe in between, up to an hour.
 */
final class BackOff {

    static final Duration FIRST = Duration.ofSeconds(30);
    static final Duration LONGEST = Duration.ofHours(1);

    private BackOff() {}

    /** The back-off of a relay marked down for the {@code downs}-th time in a row (from 1). */
    static Duration after(int downs) {
        int doublings = Math.max(0, Math.min(downs - 1, 20));
        Duration d = FIRST.multipliedBy(1L << doublings);
        return d.compareTo(LONGEST) > 0 ? LONGEST : d;
    }
}
