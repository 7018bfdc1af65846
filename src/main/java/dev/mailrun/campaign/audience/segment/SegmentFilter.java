package dev.mailrun.campaign.audience.segment;

import dev.mailrun.campaign.model.SubscriberStatus;
import dev.mailrun.campaign.model.SubscriptionStatus;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A segment's filter as {@link FilterParser} reads it from JSON (docs/AUDIENCE.md, "Segments"):
 * conditions on a subscriber joined by and, or, not. Every value here has been checked; the tree is
 * what {@link FilterCompiler} turns into SQL.
 */
public sealed interface SegmentFilter {

    /** Every part holds ({@code "and"}). */
    record All(List<SegmentFilter> parts) implements SegmentFilter {
        public All {
            parts = List.copyOf(parts);
        }
    }

    /** At least one part holds ({@code "or"}). */
    record Any(List<SegmentFilter> parts) implements SegmentFilter {
        public Any {
            parts = List.copyOf(parts);
        }
    }

    /** The part does not hold ({@code "not"}, and an attribute's {@code "ne"}). */
    record Not(SegmentFilter part) implements SegmentFilter {}

    /** A test of one attribute, named by a name the attribute rule allows. */
    record Attr(String name, AttrTest test) implements SegmentFilter {}

    /** A subscription to the list named {@code list} in one of {@code statuses}. */
    record OnList(String list, Set<SubscriptionStatus> statuses) implements SegmentFilter {
        public OnList {
            statuses = Set.copyOf(statuses);
        }
    }

    /** The subscriber's own status. */
    record Status(SubscriberStatus status) implements SegmentFilter {}

    /** A human open or click (or either) of a campaign or of any, in the last {@code days} days or ever. */
    record Engaged(Set<String> kinds, Optional<Long> campaign, Optional<Integer> days) implements SegmentFilter {
        public Engaged {
            kinds = Set.copyOf(kinds);
        }
    }

    /** A bounce or complaint of the kinds named ({@code hard}, {@code soft}, {@code complaint}), in the last {@code days} days or ever. */
    record Bounced(Set<String> kinds, Optional<Integer> days) implements SegmentFilter {
        public Bounced {
            kinds = Set.copyOf(kinds);
        }
    }

    /** What is asked of an attribute's value. */
    sealed interface AttrTest {}

    /** Equal to a text, a number (compared as a number) or true/false (compared as the text true/false). */
    record Equals(Object value) implements AttrTest {}

    /** The text holds {@code text}, letter case ignored. */
    record Contains(String text) implements AttrTest {}

    /** Equal to one of {@code values}, each as {@link Equals} compares. */
    record In(List<Object> values) implements AttrTest {
        public In {
            values = List.copyOf(values);
        }
    }

    /** A number within the bounds given (at least one). */
    record Range(Optional<BigDecimal> gt, Optional<BigDecimal> gte, Optional<BigDecimal> lt, Optional<BigDecimal> lte)
            implements AttrTest {}

    /** The attribute is there ({@code true}) or not. */
    record Exists(boolean present) implements AttrTest {}
}
