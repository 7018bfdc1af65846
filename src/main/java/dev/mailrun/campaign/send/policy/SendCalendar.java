package dev.mailrun.campaign.send.policy;

import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.campaign.model.SendWindows;
import dev.mailrun.campaign.store.DailyCountTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What the calendar allows a campaign: whether it has expired, whether its send window is open,
 * which relays of its route have used up their daily cap, and until when a run may send. Read by the
 * sending task before a run and for its deadline, and by {@code campaign status} for "held back by".
 */
public final class SendCalendar {

    /**
     * The relays of a route that have used up the day's volume, each with a phrase for status.
     * {@code all}: every relay of the route has, so a run can send nothing until the day ends.
     */
    public record CapsReached(List<String> phrases, boolean all) {

        public CapsReached {
            phrases = List.copyOf(phrases);
        }
    }

    private final DailyCap cap;
    private final DailyCountTable counts = new DailyCountTable();

    public SendCalendar(DailyCap cap) {
        this.cap = cap;
    }

    /**
     * What holds {@code campaign} back at {@code now}, as short phrases: {@code expired (at …)},
     * {@code window closed until … (local time)}, {@code daily cap of relay … reached (…, resets at …)}
     * for each relay of {@code route} that has used up its day. Empty when nothing on the calendar does.
     */
    public List<String> heldBackBy(Connection c, Campaign campaign, RelayRoute route, Instant now) throws SQLException {
        List<String> reasons = new ArrayList<>();
        if (campaign.expiredAt(now)) {
            reasons.add("expired (at " + campaign.expireAt().get() + ")");
            return reasons;
        }
        windowClosed(campaign, now).ifPresent(reasons::add);
        reasons.addAll(capsReached(c, route, now).phrases());
        return reasons;
    }

    /** Why the window is closed at {@code now}, with when it opens; empty when it is open (or there is none). */
    public Optional<String> windowClosed(Campaign campaign, Instant now) {
        if (campaign.windows().isEmpty() || campaign.windows().get().isOpen(now)) {
            return Optional.empty();
        }
        SendWindows w = campaign.windows().get();
        return Optional.of(w.nextOpen(now).map(at -> "window closed until " + at + " (" + w.local(at) + ")")
                .orElse("window closed (no range opens within a week)"));
    }

    /** Which relays of {@code route} may take no more today, with when the day ends. */
    public CapsReached capsReached(Connection c, RelayRoute route, Instant now) throws SQLException {
        LocalDate day = cap.dayOf(now);
        OptionalLong volume = cap.volumeOn(day);
        if (volume.isEmpty()) {
            return new CapsReached(List.of(), false);
        }
        List<String> phrases = new ArrayList<>();
        for (String relay : route.relays()) {
            long used = counts.read(c, relay, day);
            if (used >= volume.getAsLong()) {
                phrases.add("daily cap of relay " + relay + " reached (" + used + " of " + volume.getAsLong() + " on " + day
                        + " " + cap.zone().getId() + ", resets at " + cap.endOf(day) + ")");
            }
        }
        return new CapsReached(phrases, phrases.size() == route.relays().size());
    }

    /** When the day that holds {@code at} ends, in the cap's zone. */
    public Instant endOfDay(Instant at) {
        return cap.endOf(cap.dayOf(at));
    }

    /**
     * The deadline of a run starting at {@code now}: the scheduler's, cut at the end of the open
     * window and at the campaign's expiry, so no message goes out after either.
     */
    public static Instant deadline(Campaign campaign, Instant slotDeadline, Instant now) {
        Instant deadline = slotDeadline;
        if (campaign.windows().isPresent() && !campaign.windows().get().isOpen(now)) {
            return now;   // closed since the run looked: nothing may start
        }
        Optional<Instant> closes = campaign.windows().flatMap(w -> w.closesAfter(now));
        if (closes.isPresent() && closes.get().isBefore(deadline)) {
            deadline = closes.get();
        }
        if (campaign.expireAt().isPresent() && campaign.expireAt().get().isBefore(deadline)) {
            deadline = campaign.expireAt().get();
        }
        return deadline;
    }
}
