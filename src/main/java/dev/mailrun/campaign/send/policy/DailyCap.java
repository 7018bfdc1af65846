package dev.mailrun.campaign.send.policy;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * How many messages a relay may take per calendar day of {@code zone}: a fixed cap, a warm-up
 * schedule, or both (the schedule's volume, never above the cap).
 *
 * <p>The warm-up's day 1 is {@code warmupStart}: day <i>n</i> may send {@code warmup[n-1]}; days
 * before it send day 1's volume. After the list, each day grows by {@code growth} over the one
 * before when a growth factor is set; without one the warm-up is over and only the fixed cap (if
 * any) applies.
 *
 * @param cap         at most this many per day; empty: no fixed cap
 * @param warmup      the daily volumes of the warm-up, day 1 first; empty: no warm-up
 * @param growth      after the list, each day's volume is the previous one's times this; empty: none
 * @param warmupStart the warm-up's day 1, a date in {@code zone}
 * @param zone        where a day begins and ends
 */
public record DailyCap(OptionalLong cap, List<Long> warmup, Optional<Double> growth, Optional<LocalDate> warmupStart,
                       ZoneId zone) {

    /** The largest daily volume: a billion per day is far beyond any relay's limit. */
    public static final long MAX_VOLUME = 1_000_000_000L;

    /** No cap at all. */
    public static final DailyCap NONE = new DailyCap(OptionalLong.empty(), List.of(), Optional.empty(), Optional.empty(),
            ZoneId.of("UTC"));

    public DailyCap {
        Objects.requireNonNull(zone, "zone");
        warmup = List.copyOf(warmup);
        cap.ifPresent(c -> requireVolume("policy.daily-cap", c));
        warmup.forEach(v -> requireVolume("policy.warmup", v));
        if (growth.isPresent() && !(growth.get() >= 1 && growth.get() <= 10)) {
            throw new IllegalArgumentException("policy.warmup-growth must be 1–10, got " + growth.get());
        }
        if (growth.isPresent() && warmup.isEmpty()) {
            throw new IllegalArgumentException("policy.warmup-growth needs policy.warmup (the volume it grows from)");
        }
        if (!warmup.isEmpty() && warmupStart.isEmpty()) {
            throw new IllegalArgumentException("policy.warmup-start must be set when policy.warmup is (the warm-up's first day)");
        }
        if (warmup.isEmpty() && warmupStart.isPresent()) {
            throw new IllegalArgumentException("policy.warmup-start is set but policy.warmup is empty");
        }
    }

    private static void requireVolume(String key, long v) {
        if (v < 1 || v > MAX_VOLUME) {
            throw new IllegalArgumentException(key + " volumes must be 1–" + MAX_VOLUME + ", got " + v);
        }
    }

    /** Whether any day is capped: without, claims take no counter lock at all. */
    public boolean active() {
        return cap.isPresent() || !warmup.isEmpty();
    }

    /** The calendar day of {@code zone} that {@code at} falls on. */
    public LocalDate dayOf(Instant at) {
        return LocalDate.ofInstant(at, zone);
    }

    /** When {@code day} ends: the first instant of the next day in {@code zone}. */
    public Instant endOf(LocalDate day) {
        return day.plusDays(1).atStartOfDay(zone).toInstant();
    }

    /** How many may be claimed on {@code day} in total; empty: no limit that day. */
    public OptionalLong volumeOn(LocalDate day) {
        OptionalLong ramp = warmupOn(day);
        if (ramp.isPresent() && cap.isPresent()) {
            return OptionalLong.of(Math.min(ramp.getAsLong(), cap.getAsLong()));
        }
        return ramp.isPresent() ? ramp : cap;
    }

    private OptionalLong warmupOn(LocalDate day) {
        if (warmup.isEmpty()) {
            return OptionalLong.empty();
        }
        long index = Math.max(0, ChronoUnit.DAYS.between(warmupStart.get(), day));
        if (index < warmup.size()) {
            return OptionalLong.of(warmup.get((int) index));
        }
        if (growth.isEmpty()) {
            return OptionalLong.empty();
        }
        double volume = warmup.get(warmup.size() - 1) * Math.pow(growth.get(), index - warmup.size() + 1);
        return OptionalLong.of((long) Math.min(MAX_VOLUME, Math.floor(volume)));
    }
}
