package dev.mailrun.http.api;

import dev.mailrun.campaign.audience.Lists;
import dev.mailrun.campaign.audience.Subscriber;
import dev.mailrun.campaign.audience.SubscriberImportReport;
import dev.mailrun.campaign.importing.RecipientRejectReason;
import dev.mailrun.campaign.model.SubscriptionStatus;
import dev.mailrun.campaign.store.audience.SegmentTable;
import dev.mailrun.campaign.store.audience.SubscriberListTable;
import dev.mailrun.campaign.store.audience.SubscriberMatches;
import dev.mailrun.csv.RejectedRow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The audience as the API writes it: subscribers, lists with their counts, segments, an import's report. */
final class AudienceJson {

    private AudienceJson() {}

    static Map<String, Object> subscriber(Subscriber s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", s.id());
        m.put("email", s.email());
        m.put("name", s.name().orElse(null));
        m.put("attributes", s.attributes().values());
        m.put("status", s.status().dbValue());
        m.put("created_at", s.createdAt().toString());
        m.put("updated_at", s.updatedAt().toString());
        return m;
    }

    static Map<String, Object> match(SubscriberMatches.Match s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", s.id());
        m.put("email", s.email());
        m.put("name", s.name().orElse(null));
        m.put("status", s.status().dbValue());
        return m;
    }

    static Map<String, Object> list(SubscriberListTable.Stored l, Map<SubscriptionStatus, Long> counts) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", l.id());
        m.put("name", l.name());
        m.put("description", l.description().orElse(null));
        m.put("visibility", l.visibility().dbValue());
        m.put("opt_in", l.optIn().dbValue());
        Map<String, Object> n = new LinkedHashMap<>();
        for (SubscriptionStatus s : SubscriptionStatus.values()) {
            n.put(s.dbValue(), counts.getOrDefault(s, 0L));
        }
        m.put("counts", n);
        m.put("created_at", l.createdAt().toString());
        m.put("updated_at", l.updatedAt().toString());
        return m;
    }

    static Map<String, Object> list(Lists.Summary s) {
        return list(s.list(), s.counts());
    }

    static Map<String, Object> segment(SegmentTable.Stored s, long count) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", s.id());
        m.put("name", s.name());
        try {
            m.put("filter", Json.MAPPER.readTree(s.filter()));
        } catch (java.io.IOException e) {
            throw new IllegalStateException("a stored segment's filter is not JSON", e);
        }
        m.put("count", count);
        m.put("created_at", s.createdAt().toString());
        m.put("updated_at", s.updatedAt().toString());
        return m;
    }

    /** As {@code subscribers import} reports it; a reject's place is its line (of the CSV file, or of the NDJSON upload). */
    static Map<String, Object> report(SubscriberImportReport r, boolean ndjson) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("list", r.list());
        m.put("mode", r.mode().label());
        m.put("rows", r.rows());
        m.put("imported", r.imported());
        m.put("subscribed", r.subscribed());
        m.put("updated", r.updated());
        m.put("unsubscribed", r.unsubscribed());
        m.put("blocklisted", r.blocklisted());
        m.put("unchanged", r.unchanged());
        m.put("rejected", r.rejected());
        Map<String, Long> byReason = new LinkedHashMap<>();
        r.rejectedByReason().entrySet().stream().filter(e -> e.getValue() > 0).sorted(Map.Entry.comparingByKey())
                .forEach(e -> byReason.put(e.getKey().label(), e.getValue()));
        m.put("rejected_by_reason", byReason);
        List<Map<String, Object>> rejects = new ArrayList<>();
        for (RejectedRow<RecipientRejectReason> row : r.firstRejects()) {
            Map<String, Object> reject = new LinkedHashMap<>();
            // An NDJSON line is the line after it of the CSV file it was turned into (NdjsonUpload): the header.
            reject.put("line", ndjson ? row.line() - 1 : row.line());
            reject.put("email", row.email());
            reject.put("reason", row.reason().label());
            reject.put("detail", row.detail());
            rejects.add(reject);
        }
        m.put("first_rejects", rejects);
        return m;
    }
}
