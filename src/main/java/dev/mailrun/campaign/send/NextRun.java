package dev.mailrun.campaign.send;

import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.scheduler.RunContext;
import java.time.Duration;
import java.time.Instant;

/** Where on the tick grid a campaign's next run falls when it must not be the next slot. */
final class NextRun {

    private NextRun() {
    }

    /**
     * Moves the next run to {@code slot} when that is later than the next slot anyway, but never
     * past the slot of the campaign's expiry, which must then find it.
     */
    static void skipTo(RunContext ctx, Campaign campaign, Instant slot) {
        Instant at = campaign.expireAt().map(e -> slotAtOrAfter(e, ctx.interval()))
                .filter(e -> e.isBefore(slot)).orElse(slot);
        if (at.isAfter(ctx.scheduledFor().plus(ctx.interval()))) {
            ctx.runNextAt(at);
        }
    }

    /** The first tick slot starting at or after {@code at}. */
    static Instant slotAtOrAfter(Instant at, Duration interval) {
        long ms = interval.toMillis();
        long t = at.toEpochMilli();
        long floor = t - Math.floorMod(t, ms);
        return Instant.ofEpochMilli(floor == t ? t : floor + ms);
    }

    /** The tick slot that holds {@code at}: its run starts at or before it. */
    static Instant slotHolding(Instant at, Duration interval) {
        long ms = interval.toMillis();
        long t = at.toEpochMilli();
        return Instant.ofEpochMilli(t - Math.floorMod(t, ms));
    }
}
