package dev.mailrun.campaign.model;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A campaign's A/B test: its variants (2-5, names unique), the share of the list that is sent the
 * variants first (1-50 %), when the winner is due after that share went out (empty: only when the
 * operator picks) and how it is picked.
 */
public record AbTest(List<Variant> variants, int testSharePercent, Optional<Duration> decideAfter, PickBy pickBy) {

    public static final int MAX_VARIANTS = 5;
    /** Longest time to decide after: a test older than a year says nothing of today's list. */
    public static final Duration MAX_DECIDE_AFTER = Duration.ofDays(365);

    public AbTest {
        variants = List.copyOf(variants);
        if (variants.size() < 2) {
            throw InvalidFields.of("variants", "an A/B test needs at least 2 variants, got " + variants.size());
        }
        if (variants.size() > MAX_VARIANTS) {
            throw InvalidFields.of("variants", "at most " + MAX_VARIANTS + " variants, got " + variants.size());
        }
        Set<String> names = new HashSet<>();
        for (Variant v : variants) {
            if (!names.add(v.name())) {
                throw InvalidFields.of("variants", "the name " + v.name() + " is used twice");
            }
        }
        if (testSharePercent < 1 || testSharePercent > 50) {
            throw InvalidFields.of("testShare", "must be 1%-50%, got " + testSharePercent + "%");
        }
        decideAfter.ifPresent(d -> {
            if (d.isNegative() || d.isZero() || d.compareTo(MAX_DECIDE_AFTER) > 0) {
                throw InvalidFields.of("decideAfter", "must be above 0 and at most 365d, got " + d);
            }
        });
        java.util.Objects.requireNonNull(pickBy, "pickBy");
    }

    /** The variant at {@code position} (what recipient.variant holds). */
    public Variant variant(int position) {
        return variants.get(position);
    }

    /** The position of the variant called {@code name}; empty when there is none. */
    public Optional<Integer> position(String name) {
        for (int i = 0; i < variants.size(); i++) {
            if (variants.get(i).name().equals(name)) {
                return Optional.of(i);
            }
        }
        return Optional.empty();
    }

    /** The share's size for a list of {@code total}: rounded up, so a small list still tests every variant once. */
    public long testSize(long total) {
        return Math.min(total, Math.max(variants.size(), (total * testSharePercent + 99) / 100));
    }
}
