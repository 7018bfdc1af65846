package dev.mailrun.app.config;

import java.math.BigDecimal;
import java.time.Duration;

/**
 * The values a numeric or duration key accepts, checked when the configuration is read and shown in
 * docs/CONFIGURATION.md and {@code mailrun.properties.example} ({@link ConfigReference}). Bounds
 * are inclusive; {@code orZero} also admits 0, which some keys use to mean "none" or "forever".
 */
public sealed interface Range {

    /** As documented, e.g. {@code 2–500}, {@code 1s–1d}, {@code 0 or 0.01–100000}. */
    String text();

    static Whole whole(int min, int max) {
        return new Whole(min, max);
    }

    static Decimal decimal(double min, double max, boolean orZero) {
        return new Decimal(min, max, orZero);
    }

    static Span span(Duration min, Duration max, boolean orZero) {
        return new Span(min, max, orZero);
    }

    /** A rate written per second, minute or hour ({@code 5/s}, {@code 300/min}); empty means none. */
    static PerTime perTime(double minPerSecond, double maxPerSecond) {
        return new PerTime(minPerSecond, maxPerSecond);
    }

    record Whole(int min, int max) implements Range {
        boolean contains(long value) {
            return value >= min && value <= max;
        }

        @Override
        public String text() {
            return min + "–" + max;
        }
    }

    record Decimal(double min, double max, boolean orZero) implements Range {
        boolean contains(double value) {
            return (orZero && value == 0) || (value >= min && value <= max);
        }

        @Override
        public String text() {
            return (orZero ? "0 or " : "") + plain(min) + "–" + plain(max);
        }

        static String plain(double d) {
            return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
        }
    }

    record Span(Duration min, Duration max, boolean orZero) implements Range {
        boolean contains(Duration value) {
            return (orZero && value.isZero()) || (value.compareTo(min) >= 0 && value.compareTo(max) <= 0);
        }

        @Override
        public String text() {
            return (orZero ? "0s or " : "") + format(min) + "–" + format(max);
        }
    }

    record PerTime(double minPerSecond, double maxPerSecond) implements Range {
        @Override
        public String text() {
            return Decimal.plain(minPerSecond) + "/s–" + Decimal.plain(maxPerSecond) + "/s";
        }
    }

    /** In the largest unit that divides it: {@code 3650d}, {@code 2h}, {@code 10m}, {@code 1s}, {@code 100ms}. */
    public static String format(Duration d) {
        long ms = d.toMillis();
        long[] sizes = {86_400_000L, 3_600_000L, 60_000L, 1_000L};
        String[] units = {"d", "h", "m", "s"};
        for (int i = 0; i < sizes.length; i++) {
            if (ms != 0 && ms % sizes[i] == 0) {
                return (ms / sizes[i]) + units[i];
            }
        }
        return ms == 0 ? "0s" : ms + "ms";
    }
}
