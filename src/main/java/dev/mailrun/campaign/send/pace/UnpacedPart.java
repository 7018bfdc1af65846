package dev.mailrun.campaign.send.pace;

import java.time.Duration;
import java.time.Instant;

/**
 * What a run knows of the part of its queue outside the paced domain groups — "the other domains":
 * where its claims go on reading, whether they ran dry, and how many of them the run still holds.
 * Claims sized to the caps, the prediction, and the moment a run gives the rest of its relay share
 * up all follow from it ({@link DomainPacer}). Not thread-safe; {@link DomainPacer} calls it under
 * its lock.
 */
final class UnpacedPart {

    /** The highest pending id of the other domains the last claim took: where the next one reads on. */
    private long from;
    /** Until when claims leave the other domains alone (a claim found fewer than it asked); MIN: never dry. */
    private Instant dryUntil = Instant.MIN;
    /** The last claim asking for them found none, and none of the run's were on their way back to the queue. */
    private boolean none;
    /** Claimed and not yet in a batch being sent (a claim made ahead holds them). */
    private int held;
    /** Claimed and without a result yet (sent, failed or handed back). */
    private int out;

    long from() {
        return from;
    }

    /** Left alone now: a claim found too few of them within {@code recheck} before. */
    boolean dry(Instant now, boolean lastChance) {
        return !lastChance && now.isBefore(dryUntil);
    }

    /** A claim found fewer than it asked for at some point in this run. */
    boolean ranDry() {
        return dryUntil != Instant.MIN;
    }

    /**
     * Whether the next claim asks for one of them although they are dry: while the last claim found
     * a few (the run may have taken the last of them) and, once left alone for the recheck pause,
     * again. A claim then finds out whether any came back, or that none are left, which lets the
     * run give up the rest of its relay share at once rather than a pause later.
     */
    boolean probe(Instant now, boolean lastChance) {
        return !lastChance && ranDry() && (!dry(now, false) || !none);
    }

    /**
     * A claim asked for {@code asked} of them and found {@code found} (those suppressed included),
     * the highest pending id {@code lastId} (0: none).
     *
     * @param releasing some of the run's recipients were on their way back to the queue, unseen by
     *                  the claim: finding none then does not mean none are left
     */
    void asked(int asked, int found, long lastId, Instant now, Duration recheck, boolean releasing) {
        dryUntil = found < asked ? now.plus(recheck) : Instant.MIN;
        none = found == 0 && !releasing;
        if (lastId > 0) {
            from = lastId;
        }
    }

    /** A claim took {@code count} of them to send. */
    void claimed(int count) {
        held += count;
        out += count;
    }

    /** {@code count} of them went into the batch being sent. */
    void taken(int count) {
        held = Math.max(0, held - count);
    }

    /** One of them has its result; {@code back}: it goes back to the queue unsent, so some are left. */
    void settled(boolean back) {
        out = Math.max(0, out - 1);
        none &= !back;
    }

    /** A claim made ahead holds some of them, not yet in a batch. */
    boolean held() {
        return held > 0;
    }

    /** None are left: a claim found none (none on their way back), and each claimed has its result. */
    boolean usedUp() {
        return ranDry() && none && out == 0;
    }
}
