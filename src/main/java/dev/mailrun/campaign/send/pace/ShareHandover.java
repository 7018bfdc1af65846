package dev.mailrun.campaign.send.pace;

import dev.mailrun.campaign.store.PaceTailTable.Handover;
import dev.mailrun.campaign.store.RelayShareTable.Live;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.LongStream;

/**
 * How runs hand a shared pace (a relay's rate, a domain group's cap) to a run joining it, so that
 * the joiner can send at once without the pace's second holding more than its rate.
 *
 * <p>A holder that finds a new holder at a renewal lowers its own pace first, then, in the same
 * transaction, writes the joiner a handover: its sends of the last second that the lowered pace no
 * longer holds. Its window keeps ⌈share⌉ of its last second's sends, spread evenly over it
 * ({@code SendRateLimiter.handOverTo}), so in any second from then on it sends at most its share plus
 * those it handed over; the joiner counts them as its own, and the two together stay within the rate. A joiner waits until every other live holder of each of its paces has handed over
 * (each renews at least once a renewal period, so a fraction of one at most) instead of a fixed
 * time for them to slow down. Runs starting together hand over to each other at their first
 * renewals and none of them waits.
 *
 * <p>Not thread-safe; {@link RelayShare} calls it under its lock.
 */
final class ShareHandover {

    /** Per name: the other holders this run has handed over to. */
    private final Map<String, Set<String>> handedTo = new HashMap<>();
    /** Per name: this run's sends beyond a lowered pace (ages in ns), until a handover carries them. */
    private final Map<String, long[]> beyond = new HashMap<>();

    /** A renewal lowered this run's pace on {@code name}: {@code agesNanos} are its sends the new pace no longer holds. */
    void lowered(String name, long[] agesNanos) {
        if (agesNanos.length > 0) {
            beyond.merge(name, agesNanos, (a, b) -> LongStream.concat(Arrays.stream(a), Arrays.stream(b)).sorted().toArray());
        }
    }

    /**
     * The handovers a renewal that found {@code live} owes: one to every other holder of each name
     * not handed over to yet, with this run's sends beyond its lowered pace there. Ages are counted
     * from when the pace was lowered, so a handover written later makes the joiner count them a
     * little longer than needed, never shorter.
     */
    List<Handover> owed(Map<String, Live> live) {
        List<Handover> owed = new ArrayList<>();
        live.forEach((name, holders) -> {
            Set<String> done = handedTo.getOrDefault(name, Set.of());
            long[] millis = Arrays.stream(beyond.getOrDefault(name, new long[0])).map(ns -> ns / 1_000_000L).toArray();
            holders.others().stream().filter(other -> !done.contains(other)).sorted()
                    .forEach(other -> owed.add(new Handover(name, other, millis)));
        });
        return owed;
    }

    /**
     * The renewal that found {@code live} committed {@code written}: those joiners have their
     * handovers, and what this run sent beyond its pace is now theirs to count. Holders gone are forgotten.
     */
    void written(Map<String, Live> live, List<Handover> written) {
        for (Handover h : written) {
            handedTo.computeIfAbsent(h.name(), k -> new HashSet<>()).add(h.joiner());
        }
        handedTo.forEach((name, joiners) -> joiners.retainAll(live.containsKey(name) ? live.get(name).others() : Set.of()));
        // Sends beyond a lowered pace that no joiner took (the pace was lowered for another reason,
        // a rate adapted down) concern nobody: there is no second holder to count them.
        beyond.clear();
    }

    /** True when every other holder {@code live} found has handed over to this run on every name. */
    static boolean complete(Map<String, Live> live, Map<String, Map<String, long[]>> handedOver) {
        return live.entrySet().stream().allMatch(e ->
                handedOver.getOrDefault(e.getKey(), Map.of()).keySet().containsAll(e.getValue().others()));
    }

    /**
     * What this run counts as sent before it starts, per name, in nanoseconds: the tails of the runs
     * that ended within the last second and every handover to it (both in milliseconds).
     */
    static Map<String, long[]> counted(Map<String, long[]> tailsMillis, Map<String, Map<String, long[]>> handedOver) {
        Map<String, LongStream.Builder> all = new HashMap<>();
        tailsMillis.forEach((name, ages) -> Arrays.stream(ages).forEach(all.computeIfAbsent(name, k -> LongStream.builder())));
        handedOver.forEach((name, byHolder) -> byHolder.values().forEach(ages ->
                Arrays.stream(ages).forEach(all.computeIfAbsent(name, k -> LongStream.builder()))));
        Map<String, long[]> nanos = new HashMap<>();
        all.forEach((name, ages) -> nanos.put(name, ages.build().map(ms -> ms * 1_000_000L).sorted().toArray()));
        return nanos;
    }
}
