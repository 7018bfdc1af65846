package dev.mailrun.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What smtp-sink received per second of its clock, read from the files it dumps ({@code -d
 * DIR/%Y%m%d%H%M%S.}: one file per message, named by the second it arrived in), in total and for
 * the recipients of one domain (a capped group), with the share of the allowance and the seconds
 * over a limit.
 */
final class SinkCounts {

    private static final DateTimeFormatter NAME = DateTimeFormatter.ofPattern("yyyyMMddHHmmss");

    private final SortedMap<Long, Integer> all = new TreeMap<>();
    private final SortedMap<Long, Integer> domain = new TreeMap<>();

    private SinkCounts() {
    }

    /** Reads every dumped message; {@code domain}: the recipient domain counted apart (empty: none). */
    static SinkCounts read(Path dumpDir, String domain) throws IOException {
        SinkCounts counts = new SinkCounts();
        String marker = "@" + domain + ">";
        try (Stream<Path> files = Files.list(dumpDir)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                String name = file.getFileName().toString();
                if (name.indexOf('.') != 14) {
                    continue;
                }
                // smtp-sink expands the template on its local clock.
                long second = LocalDateTime.parse(name.substring(0, 14), NAME).atZone(ZoneId.systemDefault()).toEpochSecond();
                counts.all.merge(second, 1, Integer::sum);
                if (!domain.isEmpty() && head(file).contains(marker)) {
                    counts.domain.merge(second, 1, Integer::sum);
                }
            }
        }
        return counts;
    }

    /** Deletes the dumped files and the directory. */
    static void delete(Path dumpDir) throws IOException {
        try (Stream<Path> files = Files.walk(dumpDir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static String head(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return new String(in.readNBytes(400), StandardCharsets.ISO_8859_1);
        }
    }

    boolean isEmpty() {
        return all.isEmpty();
    }

    /**
     * One line: received over {@code rate × seconds} from {@code first} for {@code seconds}, the
     * busiest second and how many seconds were over {@code rate}; then the seconds below 90% of it.
     */
    String summary(String what, Instant first, long seconds, long intervalSeconds, double rate, boolean ofDomain) {
        SortedMap<Long, Integer> counts = ofDomain ? domain : all;
        long from = first.getEpochSecond();
        long received = 0;
        int most = 0;
        int over = 0;
        List<String> low = new ArrayList<>();
        for (long s = from; s < from + seconds; s++) {
            int n = counts.getOrDefault(s, 0);
            received += n;
            most = Math.max(most, n);
            over += n > rate ? 1 : 0;
            if (n < rate * 0.9 && low.size() < 30) {
                low.add(String.format(Locale.ROOT, "%d:%d", (s - from) % intervalSeconds, n));
            }
        }
        return String.format(Locale.ROOT, "%s at the sink (per second of its clock): received %d of %.0f: %.2f%%; most in "
                        + "one second %d (limit %s); seconds over the limit: %d; seconds under 90%% of it (second of the "
                        + "window:count, first 30): %s", what, received, rate * seconds, 100.0 * received / (rate * seconds),
                most, rate == Math.rint(rate) ? Long.toString((long) rate) : Double.toString(rate), over,
                low.isEmpty() ? "none" : String.join(" ", low));
    }

    /** The seconds from {@code from} in which the domain still received anything: while it had recipients left. */
    long domainSeconds(Instant first, long seconds) {
        long from = first.getEpochSecond();
        long last = domain.isEmpty() ? from : Math.min(from + seconds, domain.lastKey() + 1);
        return Math.max(0, last - from);
    }

    /**
     * The seconds from {@code from} up to the last second the other domains received at least
     * {@code atLeast}: while the list still had uncapped recipients to send. A straggler after
     * that (a recipient handed back at a run's end and sent by a later run) does not stretch it.
     */
    long othersSeconds(Instant first, long seconds, double atLeast) {
        long from = first.getEpochSecond();
        long last = from;
        for (var e : all.headMap(from + seconds).entrySet()) {
            if (e.getValue() - domain.getOrDefault(e.getKey(), 0) >= atLeast) {
                last = Math.max(last, e.getKey() + 1);
            }
        }
        return Math.max(0, Math.min(from + seconds, last) - from);
    }
}
