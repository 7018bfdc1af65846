package dev.mailrun.campaign.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mailrun.campaign.model.RunCounts;
import dev.mailrun.campaign.model.Attachment;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.ErrorCount;
import dev.mailrun.campaign.model.RecipientStatus;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The stable machine-readable form of {@link CampaignReport}s (docs/STATUS-JSON.md):
 * printed by {@code campaign status --json} and served as {@code /status.json}, from this one place.
 */
public final class CampaignReportJson {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private CampaignReportJson() {}

    /** One report as an object. */
    public static String of(CampaignReport report) {
        return write(toJson(report));
    }

    /** Several reports as an array. */
    public static String of(List<CampaignReport> reports) {
        ArrayNode all = JSON.createArrayNode();
        reports.forEach(r -> all.add(toJson(r)));
        return write(all);
    }

    private static String write(Object node) {
        try {
            return JSON.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree of plain JSON nodes always serialises", e);
        }
    }

    static ObjectNode toJson(CampaignReport r) {
        ObjectNode root = JSON.createObjectNode();
        Campaign c = r.campaign();
        ObjectNode campaign = root.putObject("campaign");
        campaign.put("id", c.id());
        campaign.put("name", c.name());
        campaign.put("template", c.template());
        campaign.put("status", c.status().dbValue());
        campaign.put("pause_reason", c.pauseReason().orElse(null));
        campaign.put("start_at", c.startAt().map(Object::toString).orElse(null));
        if (c.rateCap().isPresent()) {
            campaign.put("rate_cap", c.rateCap().get());
        } else {
            campaign.putNull("rate_cap");
        }
        campaign.put("window", c.windows().map(Object::toString).orElse(null));
        campaign.put("expire_at", c.expireAt().map(Object::toString).orElse(null));
        ArrayNode held = root.putArray("held_back_by");
        r.heldBackBy().forEach(held::add);
        ObjectNode counts = root.putObject("counts");
        for (RecipientStatus st : RecipientStatus.values()) {
            counts.put(st.dbValue(), r.counts().get(st));
        }
        counts.put("total", r.total());
        ObjectNode rate = root.putObject("rate");
        rate.put("configured", r.configuredRate());
        putRounded(rate, "current", r.currentRate().orElse(null));
        putRounded(rate, "average", r.averageRate().orElse(null));
        if (r.eta().from(r.at()).isPresent()) {
            root.put("eta_seconds", r.eta().from(r.at()).get().toSeconds());
        } else {
            root.putNull("eta_seconds");
        }
        root.put("eta_at", r.eta().done().map(Object::toString).orElse(null));
        root.put("eta_after", r.eta().after().map(Object::toString).orElse(null));
        root.put("eta_waits_for", r.eta().waitsFor().orElse(null));
        complaints(root.putObject("complaint_rate"), r);
        ArrayNode runs = root.putArray("runs");
        for (CampaignReport.RunLine run : r.runs()) {
            ObjectNode n = runs.addObject();
            n.put("started_at", run.startedAt().toString());
            n.put("finished_at", run.finishedAt().map(Object::toString).orElse(null));
            n.put("outcome", run.outcome());
            n.put("items", run.items());
            putCount(n, "sent", run.counts().map(RunCounts::sent));
            putCount(n, "failed", run.counts().map(RunCounts::failed));
            putCount(n, "deferred", run.counts().map(RunCounts::deferred));
            putCount(n, "suppressed", run.counts().map(RunCounts::suppressed));
            putCount(n, "handed_back", run.counts().map(RunCounts::handedBack));
            if (run.duration().isPresent()) {
                n.put("duration_ms", run.duration().get().toMillis());
            } else {
                n.putNull("duration_ms");
            }
            putRounded(n, "utilisation", run.utilisation().orElse(null));
            if (run.overrun().isPresent()) {
                n.put("overrun_ms", run.overrun().get().toMillis());
            } else {
                n.putNull("overrun_ms");
            }
            putRounded(n, "window_share", run.windowShare().orElse(null));
            putMillis(n, "gap_ms", run.gap());
            putMillis(n, "waited_ms", run.waited());
            putMillis(n, "margin_ms", run.margin());
            n.put("error", run.error().orElse(null));
        }
        ArrayNode errors = root.putArray("top_errors");
        for (ErrorCount e : r.topErrors()) {
            ObjectNode n = errors.addObject();
            n.put("status", e.status());
            n.put("code", e.code());
            n.put("error", e.error());
            n.put("count", e.count());
        }
        ArrayNode relays = root.putArray("relays");
        for (CampaignReport.RelayLine l : r.relays()) {
            ObjectNode n = relays.addObject();
            n.put("name", l.relay());
            if (l.weight().isPresent()) {
                n.put("weight", l.weight().get());
            } else {
                n.putNull("weight");
            }
            n.put("state", l.stateName());
            n.put("down_until", l.downUntil().map(Object::toString).orElse(null));
            n.put("reason", l.reason().orElse(null));
            n.put("sent", l.sent());
            n.put("failed", l.failed());
            n.put("deferred", l.deferred());
        }
        ArrayNode files = root.putArray("attachments");
        for (Attachment.Summary a : r.attachments()) {
            files.addObject().put("filename", a.filename()).put("content_type", a.contentType()).put("size_bytes", a.size())
                    .put("inline", a.inline());
        }
        if (r.ab().isPresent()) {
            AbJson.put(root.putObject("ab"), r.ab().get());
        } else {
            root.putNull("ab");
        }
        if (r.engagement().isPresent()) {
            root.set("engagement", engagement(r.engagement().get()));
        } else {
            root.putNull("engagement");
        }
        root.put("generated_at", r.at().toString());
        return root;
    }

    /** Complaints per delivered send against {@code bounce.complaint-pause-rate}, as the complaint breaker reads them. */
    private static void complaints(ObjectNode n, CampaignReport r) {
        n.put("complaints", r.complaintRate().complaints());
        n.put("delivered", r.complaintRate().sends());
        // Six places: thresholds are fractions of a percent (0.003), three would round a rate onto them.
        n.put("rate", Math.round(r.complaintRate().rate() * 1_000_000) / 1_000_000.0);
        if (r.complaintThreshold().isPresent()) {
            n.put("pause_above", r.complaintThreshold().get());
        } else {
            n.putNull("pause_above");
        }
        n.put("over", r.complaintsOver());
    }

    private static ObjectNode engagement(Engagement e) {
        ObjectNode n = JSON.createObjectNode();
        n.put("track", e.mode().text());
        ObjectNode opens = n.putObject("opens");
        opens.put("human_unique", e.opens().humanUnique());
        opens.put("human_total", e.opens().humanTotal());
        opens.put("machine", e.opens().machineTotal());
        opens.put("scanner", e.opens().scannerTotal());
        opens.put("unknown", e.opens().unknownTotal());
        putRounded(opens, "machine_share", e.machineShareOfOpens().orElse(null));
        clicks(n.putObject("clicks"), e.clicks());
        ArrayNode links = n.putArray("links");
        for (Engagement.LinkLine l : e.links()) {
            ObjectNode link = links.addObject();
            link.put("index", l.index());
            link.put("url", l.url());
            clicks(link, l.clicks());
        }
        return n;
    }

    private static void clicks(ObjectNode n, Engagement.Figures f) {
        n.put("human_unique", f.humanUnique());
        n.put("human_total", f.humanTotal());
        n.put("scanner", f.scannerTotal());
        n.put("unknown", f.unknownTotal());
    }

    private static void putRounded(ObjectNode n, String key, Double value) {
        if (value == null) {
            n.putNull(key);
        } else {
            n.put(key, Math.round(value * 1000) / 1000.0);
        }
    }

    private static void putCount(ObjectNode n, String key, Optional<Long> value) {
        if (value.isPresent()) {
            n.put(key, value.get());
        } else {
            n.putNull(key);
        }
    }

    private static void putMillis(ObjectNode n, String key, Optional<Duration> value) {
        if (value.isPresent()) {
            n.put(key, value.get().toMillis());
        } else {
            n.putNull(key);
        }
    }
}
