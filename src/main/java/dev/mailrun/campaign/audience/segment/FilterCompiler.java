package dev.mailrun.campaign.audience.segment;

import dev.mailrun.campaign.model.SubscriptionStatus;
import dev.mailrun.campaign.store.audience.SubscriberFilterSql;
import dev.mailrun.campaign.store.audience.SubscriberFilterSql.Where;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Turns a {@link SegmentFilter} into SQL ({@link CompiledFilter}) through the store's fragments; "the
 * last N days" is N × 24 hours before the clock's now.
 */
public final class FilterCompiler {

    private final Clock clock;

    public FilterCompiler(Clock clock) {
        this.clock = clock;
    }

    public CompiledFilter compile(SegmentFilter filter) {
        return new CompiledFilter(where(filter));
    }

    // Java 17: no pattern matching in switch yet, so instanceof in the order of SegmentFilter's records.
    private Where where(SegmentFilter f) {
        if (f instanceof SegmentFilter.All a) {
            return SubscriberFilterSql.and(a.parts().stream().map(this::where).toList());
        }
        if (f instanceof SegmentFilter.Any a) {
            return SubscriberFilterSql.or(a.parts().stream().map(this::where).toList());
        }
        if (f instanceof SegmentFilter.Not n) {
            return SubscriberFilterSql.not(where(n.part()));
        }
        if (f instanceof SegmentFilter.Attr a) {
            return attr(a.name(), a.test());
        }
        if (f instanceof SegmentFilter.OnList l) {
            return SubscriberFilterSql.onList(l.list(), l.statuses().stream().map(SubscriptionStatus::dbValue).sorted().toList());
        }
        if (f instanceof SegmentFilter.Status s) {
            return SubscriberFilterSql.status(s.status().dbValue());
        }
        if (f instanceof SegmentFilter.Engaged e) {
            return SubscriberFilterSql.engaged(e.kinds().stream().sorted().toList(), e.campaign(), since(e.days()));
        }
        SegmentFilter.Bounced b = (SegmentFilter.Bounced) f;
        return SubscriberFilterSql.bounced(b.kinds().stream().sorted().toList(), since(b.days()));
    }

    private static Where attr(String name, SegmentFilter.AttrTest test) {
        if (test instanceof SegmentFilter.Equals e) {
            // A number compares as a number, so 42 matches "42" imported from a CSV and 42.0 stored as JSON.
            return e.value() instanceof BigDecimal n ? SubscriberFilterSql.attrIn(name, List.of(), List.of(n))
                    : SubscriberFilterSql.attrEquals(name, String.valueOf(e.value()));
        }
        if (test instanceof SegmentFilter.Contains c) {
            return SubscriberFilterSql.attrContains(name, c.text());
        }
        if (test instanceof SegmentFilter.In in) {
            List<String> texts = new ArrayList<>();
            List<BigDecimal> numbers = new ArrayList<>();
            for (Object v : in.values()) {
                if (v instanceof BigDecimal n) {
                    numbers.add(n);
                } else {
                    texts.add(String.valueOf(v));
                }
            }
            return SubscriberFilterSql.attrIn(name, texts, numbers);
        }
        if (test instanceof SegmentFilter.Range r) {
            return SubscriberFilterSql.attrRange(name, r.gt(), r.gte(), r.lt(), r.lte());
        }
        SegmentFilter.Exists e = (SegmentFilter.Exists) test;
        return e.present() ? SubscriberFilterSql.attrExists(name) : SubscriberFilterSql.not(SubscriberFilterSql.attrExists(name));
    }

    private Optional<Instant> since(Optional<Integer> days) {
        return days.map(d -> clock.instant().minus(Duration.ofDays(d)));
    }
}
