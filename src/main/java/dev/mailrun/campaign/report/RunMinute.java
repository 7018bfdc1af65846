package dev.mailrun.campaign.report;

import dev.mailrun.campaign.store.RunSecondTable.Cpu;
import dev.mailrun.campaign.store.RunSecondTable.Second;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What a campaign's sending runs did with the last minute, from their seconds
 * ({@code campaign_run_second}): how long no run was sending (the time between runs), how long
 * their sending waited on the database, and the worker's CPU on average over the readings.
 *
 * @param gapMs    milliseconds of the minute no run was between its first message and its last
 * @param dbWaitMs milliseconds of it the runs' sending waited on the database
 * @param cpu      the readings' average; empty without any
 * @param readAt   the second of the newest reading
 */
record RunMinute(long gapMs, long dbWaitMs, Optional<Cpu> cpu, Optional<Instant> readAt) {

    /** A run still sending is no more than this behind with its seconds: it writes one about every second. */
    private static final Duration LIVE = Duration.ofSeconds(2);
    private static final double CPU_BUSY = 0.9;

    /**
     * The minute of whole seconds before {@code end}'s second, from the seconds stored since its start
     * (and any after it); empty when no run wrote any.
     */
    static Optional<RunMinute> of(List<Second> stored, Instant end, Duration minute) {
        long to = end.getEpochSecond();
        long from = to - minute.toSeconds();
        List<Second> in = stored.stream().filter(s -> s.second().getEpochSecond() >= from
                && s.second().getEpochSecond() < to).toList();
        if (in.isEmpty()) {
            return Optional.empty();
        }
        long sending = 0;
        long waiting = 0;
        for (Second s : in) {
            sending += Math.min(1000, Math.max(0, s.sendingMs()));
            waiting += Math.min(1000, Math.max(0, s.dbWaitMs()));
        }
        // A run sending now has not written its last second or two yet: from its newest second on,
        // the minute counts as sent.
        Optional<Second> newest = stored.stream().filter(s -> s.sendingMs() > 0).reduce((a, b) -> b);
        if (newest.isPresent() && !newest.get().second().isBefore(Instant.ofEpochSecond(to).minus(LIVE))) {
            long last = in.stream().filter(s -> s.sendingMs() > 0).mapToLong(s -> s.second().getEpochSecond())
                    .max().orElse(to);
            for (long second = last; second < to; second++) {
                final long at = second;
                int written = in.stream().filter(s -> s.second().getEpochSecond() == at).mapToInt(Second::sendingMs)
                        .findFirst().orElse(0);
                sending += 1000 - Math.min(1000, Math.max(0, written));
            }
        }
        List<Cpu> readings = in.stream().flatMap(s -> s.cpu().stream()).toList();
        Optional<Instant> readAt = in.stream().filter(s -> s.cpu().isPresent()).map(Second::second).reduce((a, b) -> b);
        return Optional.of(new RunMinute(Math.max(0, minute.toMillis() - sending), waiting,
                readings.isEmpty() ? Optional.empty() : Optional.of(average(readings)), readAt));
    }

    /** True when the worker's CPU was the bottleneck: load at or over its cores, or 90% of them busy. */
    boolean cpuBound() {
        return cpu.map(c -> c.loadAverage().map(l -> c.cores() > 0 && l >= c.cores()).orElse(false)
                || c.host().map(h -> h >= CPU_BUSY).orElse(false)
                || c.process().map(p -> p >= CPU_BUSY).orElse(false)).orElse(false);
    }

    /** "load average 3.5 on 2 cores, host CPU 97%, mailrun 88% (read at …)". */
    String describeCpu() {
        Cpu c = cpu.orElseThrow();
        StringBuilder s = new StringBuilder();
        c.loadAverage().ifPresent(l -> s.append(String.format(Locale.ROOT, "load average %.1f on %d cores", l, c.cores())));
        c.host().ifPresent(h -> s.append(s.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT, "host CPU %.0f%%", 100 * h)));
        c.process().ifPresent(p -> s.append(s.isEmpty() ? "" : ", ")
                .append(String.format(Locale.ROOT, "mailrun's process %.0f%%", 100 * p)));
        readAt.ifPresent(at -> s.append(" (read at ").append(at).append(")"));
        return s.toString();
    }

    private static Cpu average(List<Cpu> readings) {
        return new Cpu(mean(readings.stream().flatMap(r -> r.process().stream()).toList()),
                mean(readings.stream().flatMap(r -> r.host().stream()).toList()),
                mean(readings.stream().flatMap(r -> r.loadAverage().stream()).toList()),
                readings.stream().mapToInt(Cpu::cores).max().orElse(0));
    }

    private static Optional<Double> mean(List<Double> values) {
        return values.isEmpty() ? Optional.empty()
                : Optional.of(values.stream().mapToDouble(Double::doubleValue).average().orElseThrow());
    }
}
