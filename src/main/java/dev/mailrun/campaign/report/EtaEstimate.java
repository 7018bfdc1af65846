package dev.mailrun.campaign.report;

import dev.mailrun.campaign.model.SendWindows;
import dev.mailrun.campaign.send.policy.DailyCap;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Estimates when a running (or scheduled) campaign has sent to everyone it has left:
 * <ol>
 *   <li>sending starts at {@code now}, or when a hold with a known end ends ({@code resumes}: the start
 *       time, the first relay's back-off when every relay is down);</li>
 *   <li>it goes at the route's rate now, or slower when a paced domain group needs longer for its
 *       recipients at the group's rate than the whole list needs at the route's;</li>
 *   <li>only while the send window is open, and no more per day than the route's relays' daily caps
 *       allow (today less what they have already taken), walking from window to window and day to day.</li>
 * </ol>
 * A hold with no known end (paused, a missing setting) is the caller's: it has no estimate.
 */
final class EtaEstimate {

    /** How far the walk goes before it gives up: beyond that the estimate says nothing useful. */
    private static final int MAX_STEPS = 5_000;

    /** A paced domain group: what the campaign has left there and the group's rate now. */
    record Paced(long remaining, double rate) {}

    /**
     * @param remaining every recipient still to send (pending, retry, sending)
     * @param rate      the route's rate now, capped by the campaign's; 0 = no limit
     * @param resumes   when a hold with a known end lets sending start; empty: nothing holds it now
     * @param usedToday what each relay that takes traffic has already taken today (its daily count)
     */
    record Inputs(long remaining, double rate, List<Paced> paced, Optional<Instant> resumes,
                  Optional<SendWindows> windows, DailyCap cap, List<Long> usedToday) {

        Inputs {
            paced = List.copyOf(paced);
            usedToday = List.copyOf(usedToday);
        }
    }

    private EtaEstimate() {}

    static Eta of(Instant now, Inputs in) {
        if (in.remaining() <= 0) {
            return Eta.NONE;
        }
        Optional<Instant> resumes = in.resumes().filter(r -> r.isAfter(now));
        double seconds = in.rate() > 0 ? in.remaining() / in.rate() : 0;
        boolean bounded = in.rate() > 0;
        for (Paced p : in.paced()) {
            if (p.rate() > 0 && p.remaining() > 0) {
                seconds = Math.max(seconds, p.remaining() / p.rate());
                bounded = true;
            }
        }
        if (!bounded) {
            // No rate to estimate with: only when sending can start is known.
            return new Eta(Optional.empty(), resumes, Optional.empty());
        }
        double rate = in.remaining() / seconds;
        Instant t = resumes.orElse(now);
        Optional<Instant> started = Optional.empty();
        double left = in.remaining();
        Map<LocalDate, Double> takenOn = new HashMap<>();
        LocalDate today = in.cap().dayOf(now);
        takenOn.put(today, (double) in.usedToday().stream().mapToLong(Long::longValue).sum());
        int relays = Math.max(1, in.usedToday().size());
        for (int step = 0; step < MAX_STEPS; step++) {
            if (in.windows().isPresent() && !in.windows().get().isOpen(t)) {
                Optional<Instant> opens = in.windows().get().nextOpen(t);
                if (opens.isEmpty()) {
                    return new Eta(Optional.empty(), started.or(() -> resumes), Optional.empty());
                }
                t = opens.get();
                continue;
            }
            Instant boundary = null;
            Instant at = t;
            Optional<Instant> closes = in.windows().flatMap(w -> w.closesAfter(at));
            if (closes.isPresent()) {
                boundary = closes.get();
            }
            double dayLeft = Double.POSITIVE_INFINITY;
            LocalDate day = in.cap().dayOf(t);
            OptionalLong volume = in.cap().volumeOn(day);
            Instant dayEnd = in.cap().endOf(day);
            if (volume.isPresent()) {
                dayLeft = (double) volume.getAsLong() * relays - takenOn.getOrDefault(day, 0.0);
                if (dayLeft <= 0) {
                    t = dayEnd;
                    continue;
                }
                if (boundary == null || dayEnd.isBefore(boundary)) {
                    boundary = dayEnd;
                }
            }
            if (started.isEmpty()) {
                started = Optional.of(t);
            }
            double untilBoundary = boundary == null ? Double.POSITIVE_INFINITY
                    : Duration.between(t, boundary).toMillis() / 1000.0 * rate;
            double n = Math.min(left, Math.min(untilBoundary, dayLeft));
            if (n >= left) {
                Instant done = t.plusMillis((long) Math.ceil(left / rate * 1000));
                Instant from = started.get();
                return new Eta(Optional.of(done), from.isAfter(now) ? Optional.of(from) : Optional.empty(), Optional.empty());
            }
            left -= n;
            takenOn.merge(day, n, Double::sum);
            t = n >= dayLeft ? dayEnd : boundary;
        }
        return new Eta(Optional.empty(), started.filter(s -> s.isAfter(now)).or(() -> resumes), Optional.empty());
    }
}
