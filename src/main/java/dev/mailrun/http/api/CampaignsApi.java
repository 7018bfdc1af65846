package dev.mailrun.http.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mailrun.campaign.AudienceNames;
import dev.mailrun.campaign.CampaignForm;
import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.model.AbState;
import dev.mailrun.campaign.model.AbTest;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.TrackingMode;
import dev.mailrun.campaign.model.WebVersionMode;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.CustomHeaders;
import dev.mailrun.campaign.report.CampaignReportJson;
import dev.mailrun.campaign.model.RunCounts;
import dev.mailrun.campaign.variant.AbForm;
import dev.mailrun.campaign.variant.AbPicks;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** Campaigns: create, list, get (with the status report and an ETag), the state changes, requeues, runs. */
final class CampaignsApi {

    /** What {@code campaign create} takes. */
    record CreateBody(String name, String template, String from, String fromName, String replyTo, String subject,
                      String startAt, Double rate, List<String> windows, String expireAt, String relay, String track,
                      List<String> variants, Integer testShare, String decideAfter, String decide, String pickBy,
                      Map<String, String> headers, MessageBody message, List<String> lists,
                      List<String> segments, String webVersion) {}

    /** A campaign's own message placed into a layout, as {@code campaign create --layout --body --subject}. */
    record MessageBody(String layout, String subject, String body, String format, String text) {}

    /** {@code campaign pick}: the variant that won. */
    record PickBody(String variant) {}

    /** A change of a draft or scheduled campaign: the fields given replace the campaign's, the others stay. */
    record UpdateBody(String name, String template, String from, String fromName, String replyTo, String subject,
                      String startAt, Double rate, List<String> windows, String expireAt, String relay,
                      Map<String, String> headers, String webVersion) {}

    record PauseBody(String reason) {}

    record RequeueFailedBody(String code, String reason) {}

    static final int MAX_LIST = 500;

    private final ApiServices s;
    private final Campaigns campaigns;

    CampaignsApi(ApiServices services) {
        this.s = services;
        this.campaigns = services.campaigns();
    }

    List<Operation> operations() {
        return List.of(
                Operation.read("/campaigns", ApiScope.CAMPAIGNS_READ, this::list).query("status", "created_since", "limit", "cursor"),
                Operation.write("POST", "/campaigns", ApiScope.CAMPAIGNS_WRITE, Operation.Body.JSON, "campaign.create", this::create),
                Operation.read("/campaigns/{id}", ApiScope.CAMPAIGNS_READ, this::get),
                Operation.read("/campaigns/{id}/runs", ApiScope.CAMPAIGNS_READ, this::runs).query("limit"),
                Operation.write("PATCH", "/campaigns/{id}", ApiScope.CAMPAIGNS_WRITE, Operation.Body.JSON, "campaign.update", this::update),
                action("start", Operation.Body.NONE, r -> Map.of("status", campaigns.start(r.id("id")).dbValue())),
                action("pause", Operation.Body.JSON, r -> {
                    PauseBody body = r.json(PauseBody.class);
                    campaigns.pause(r.id("id"), Strings.optional("reason", body.reason(), 500).orElse("paused through the API"));
                    return Map.of("status", CampaignStatus.PAUSED.dbValue());
                }),
                action("resume", Operation.Body.NONE, r -> Map.of("status", campaigns.resume(r.id("id")).dbValue())),
                action("cancel", Operation.Body.NONE, r -> {
                    campaigns.cancel(r.id("id"));
                    return Map.of("status", CampaignStatus.CANCELLED.dbValue());
                }),
                action("pick", Operation.Body.JSON, this::pick),
                action("requeue-unknown", Operation.Body.NONE, r -> Map.of("requeued", campaigns.requeueUnknown(r.id("id")))),
                action("requeue-failed", Operation.Body.JSON, r -> {
                    RequeueFailedBody body = r.json(RequeueFailedBody.class);
                    Campaigns.RequeueResult result = campaigns.requeueFailed(r.id("id"), Optional.ofNullable(body.code()),
                            Optional.ofNullable(body.reason()));
                    return Map.of("requeued", result.requeued(), "left_suppressed", result.leftSuppressed());
                }));
    }

    @FunctionalInterface
    private interface Action {
        Map<String, Object> act(ApiRequest request) throws Exception;
    }

    /**
     * A state change: with If-Match, only when the campaign is still as the caller last saw it (412
     * otherwise), so two operators acting on one campaign cannot undo each other unknowingly.
     */
    private Operation action(String name, Operation.Body body, Action action) {
        return Operation.write("POST", "/campaigns/{id}/" + name, ApiScope.CAMPAIGNS_WRITE, body, "campaign." + name, r -> {
            Campaign before = campaigns.get(r.id("id"));
            if (r.ifMatch().isPresent() && !matches(r.ifMatch().get(), etag(before))) {
                throw new ApiException(412, "Precondition failed", "campaign " + before.id() + " changed since that ETag; read it again");
            }
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("id", before.id());
            answer.putAll(action.act(r));
            return ApiResponse.json(200, answer).header("ETag", etag(campaigns.get(before.id())));
        });
    }

    private ApiResponse create(ApiRequest r) throws Exception {
        CreateBody b = r.json(CreateBody.class);
        List<String> windows = b.windows() == null ? List.of() : checkedWindows(b.windows());
        if (b.message() != null && b.template() != null) {
            throw ApiException.invalid("template", "give template or message, not both");
        }
        String template = b.message() != null ? null : Strings.required("template", b.template(), 64);
        CampaignForm form = new CampaignForm(Strings.required("name", b.name(), 200), template,
                Strings.optional("from", b.from(), 254), Strings.optional("from_name", b.fromName(), 200),
                Strings.optional("reply_to", b.replyTo(), 254), Strings.optional("subject", b.subject(), 500),
                Strings.optional("start_at", b.startAt(), 100), Optional.ofNullable(b.rate()), windows,
                Strings.optional("expire_at", b.expireAt(), 100), Strings.optional("relay", b.relay(), 500),
                headers(b.headers()), Strings.optional("web_version", b.webVersion(), 20));
        // Every bad field at once, named by the domain (Failures puts the names in the API's words).
        AudienceNames lists = new AudienceNames(names("lists", b.lists()), names("segments", b.segments()));
        long id = b.message() == null ? campaigns.create(form, s.relays(), abForm(b), List.of(), tracking(b.track()), lists)
                : OwnMessages.create(campaigns, form, s.relays(), abForm(b), tracking(b.track()), b.message(), lists);
        Campaign created = campaigns.get(id);
        return ApiResponse.json(201, item(created, campaigns)).header("Location", ApiHandler.PREFIX + "/campaigns/" + id)
                .header("ETag", etag(created));
    }

    /**
     * The lists or segments ({@code field}) a create names, as {@code campaign create --list} and
     * {@code --segment}; whether each exists, the campaign service checks.
     */
    private static List<String> names(String field, List<String> names) {
        if (names == null) {
            return List.of();
        }
        if (names.size() > 100) {
            throw ApiException.invalid(field, "at most 100 " + field + ", got " + names.size());
        }
        for (int i = 0; i < names.size(); i++) {
            Strings.required(field + "[" + i + "]", names.get(i), 100);
        }
        return names;
    }

    /** What {@code track} asks for, as {@code campaign create --track}; whether tracking is on, the campaign service checks. */
    private static Optional<TrackingMode> tracking(String track) {
        if (track == null) {
            return Optional.empty();
        }
        return Optional.of(TrackingMode.parse(track).orElseThrow(() -> ApiException.invalid("track",
                "must be clicks, opens or opens,clicks, got '" + Shown.of(track) + "'")));
    }

    /** The A/B options a create gives, read by the domain as {@code campaign create} reads its options. */
    private static AbForm abForm(CreateBody b) {
        List<String> variants = b.variants() == null ? List.of() : b.variants();
        if (variants.size() > AbTest.MAX_VARIANTS) {
            throw ApiException.invalid("variants", "at most " + AbTest.MAX_VARIANTS + " variants, got " + variants.size());
        }
        for (int i = 0; i < variants.size(); i++) {
            Strings.required("variants[" + i + "]", variants.get(i), 2000);
        }
        return new AbForm(variants, Optional.ofNullable(b.testShare()).map(p -> p + "%"),
                Strings.optional("decide_after", b.decideAfter(), 20), Strings.optional("decide", b.decide(), 20),
                Strings.optional("pick_by", b.pickBy(), 20));
    }

    /** Records the winner of the campaign's A/B test; a name the test does not have is a bad field. */
    private Map<String, Object> pick(ApiRequest r) throws Exception {
        long id = r.id("id");
        String variant = Strings.required("variant", r.json(PickBody.class).variant(), 20);
        AbState state = campaigns.abTest(id).orElseThrow(() -> new CampaignException("campaign " + id + " has no A/B variants"));
        if (state.test().position(variant).isEmpty()) {
            throw ApiException.invalid("variant", "campaign " + id + " has no variant " + variant);
        }
        AbPicks.Picked picked = campaigns.pick(id, variant);
        return Map.of("winner", picked.variant(), "given_the_winner", picked.givenTheWinner());
    }

    /**
     * Changes a draft or scheduled campaign; If-Match is required, so that of two operators changing
     * it at once, the second learns (412) that the first did.
     */
    private ApiResponse update(ApiRequest r) throws Exception {
        long id = r.id("id");
        Campaign current = campaigns.get(id);
        String ifMatch = r.ifMatch().orElseThrow(() -> new ApiException(428, "Precondition required",
                "send the campaign's ETag in If-Match (GET /campaigns/" + id + ")"));
        if (!matches(ifMatch, etag(current))) {
            throw new ApiException(412, "Precondition failed", "campaign " + id + " changed since that ETag; read it again");
        }
        UpdateBody b = r.json(UpdateBody.class);
        List<String> windows = b.windows() != null ? checkedWindows(b.windows())
                : current.windows().map(w -> List.of(w.spec())).orElse(List.of());
        CampaignForm form = new CampaignForm(
                Strings.optional("name", b.name(), 200).orElse(current.name()),
                Strings.optional("template", b.template(), 64).orElse(current.template()),
                Strings.optional("from", b.from(), 254).or(() -> Optional.of(current.fromAddress())),
                Strings.optional("from_name", b.fromName(), 200).or(current::fromName),
                Strings.optional("reply_to", b.replyTo(), 254).or(current::replyTo),
                Strings.optional("subject", b.subject(), 500).or(current::subjectOverride),
                Strings.optional("start_at", b.startAt(), 100).or(() -> current.startAt().map(Instant::toString)),
                Optional.ofNullable(b.rate()).or(current::rateCap), windows,
                Strings.optional("expire_at", b.expireAt(), 100).or(() -> current.expireAt().map(Instant::toString)),
                Strings.optional("relay", b.relay(), 500),
                b.headers() != null ? headers(b.headers()) : current.headers().list(),
                Strings.optional("web_version", b.webVersion(), 20).or(() -> current.webVersion().map(WebVersionMode::word)));
        Campaign changed = campaigns.update(id, form.parse(s.relays()), current.updatedAt())
                .orElseThrow(() -> new ApiException(412, "Precondition failed", "campaign " + id + " changed meanwhile; read it again"));
        return ApiResponse.json(200, item(changed, campaigns)).header("ETag", etag(changed));
    }

    /** The headers object as given, in its order; checked with the rest of the form (CustomHeaders). */
    private static List<CustomHeaders.Header> headers(Map<String, String> headers) {
        if (headers == null) {
            return List.of();
        }
        return headers.entrySet().stream().map(e -> new CustomHeaders.Header(e.getKey(), e.getValue())).toList();
    }

    private static List<String> checkedWindows(List<String> windows) {
        if (windows.size() > 20) {
            throw ApiException.invalid("windows", "at most 20 ranges");
        }
        for (int i = 0; i < windows.size(); i++) {
            Strings.required("windows[" + i + "]", windows.get(i), 200);
        }
        return windows;
    }

    private ApiResponse list(ApiRequest r) throws Exception {
        int limit = r.intParam("limit", 1, MAX_LIST, 100);
        Optional<CampaignStatus> status = r.param("status").map(CampaignsApi::status);
        Optional<Instant> since = r.param("created_since").map(CampaignsApi::instant);
        long after = r.param("cursor").map(c -> Cursors.decodeLong("campaigns", c)).orElse(0L);
        // In id order, after the cursor's id, filtered in SQL: a campaign created meanwhile lands at the end,
        // never on a page already read.
        List<Campaign> matching = campaigns.page(status, since, after, limit + 1);
        List<Campaign> page = matching.subList(0, Math.min(limit, matching.size()));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("campaigns", page.stream().map(c -> item(c, campaigns)).toList());
        body.put("next_cursor", matching.size() > limit ? Cursors.encode("campaigns", page.get(page.size() - 1).id()) : null);
        return ApiResponse.json(200, body);
    }

    private ApiResponse get(ApiRequest r) throws Exception {
        long id = r.id("id");
        Campaign campaign = campaigns.get(id);
        JsonNode report = Json.MAPPER.readTree(CampaignReportJson.of(s.reports().report(id)));
        Map<String, Object> body = item(campaign, campaigns);
        body.put("report", report);
        return ApiResponse.json(200, body).header("ETag", etag(campaign));
    }

    private ApiResponse runs(ApiRequest r) throws Exception {
        int limit = r.intParam("limit", 1, 500, 50);
        List<Map<String, Object>> runs = campaigns.runs(r.id("id"), limit).stream().map(run -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", run.id());
            m.put("started_at", run.startedAt().toString());
            m.put("finished_at", run.finishedAt().map(Instant::toString).orElse(null));
            m.put("outcome", run.outcome());
            m.put("items", run.items().orElse(null));
            m.put("sent", run.counts().map(RunCounts::sent).orElse(null));
            m.put("failed", run.counts().map(RunCounts::failed).orElse(null));
            m.put("deferred", run.counts().map(RunCounts::deferred).orElse(null));
            m.put("suppressed", run.counts().map(RunCounts::suppressed).orElse(null));
            m.put("handed_back", run.counts().map(RunCounts::handedBack).orElse(null));
            m.put("error", run.error().orElse(null));
            return m;
        }).toList();
        return ApiResponse.json(200, Map.of("runs", runs));
    }

    /** The campaign as the API shows it; its web version as its pages show it now ({@code campaigns}' setting or default). */
    static Map<String, Object> item(Campaign c, Campaigns campaigns) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", c.id());
        m.put("name", c.name());
        m.put("status", c.status().dbValue());
        m.put("template", c.template());
        m.put("from", c.fromAddress());
        m.put("from_name", c.fromName().orElse(null));
        m.put("reply_to", c.replyTo().orElse(null));
        m.put("subject", c.subjectOverride().orElse(null));
        m.put("start_at", c.startAt().map(Instant::toString).orElse(null));
        m.put("rate", c.rateCap().orElse(null));
        m.put("windows", c.windows().map(Object::toString).orElse(null));
        m.put("expire_at", c.expireAt().map(Instant::toString).orElse(null));
        Map<String, String> headers = new LinkedHashMap<>();
        c.headers().list().forEach(h -> headers.put(h.name(), h.value()));
        m.put("headers", headers);
        m.put("web_version", campaigns.webVersions().of(c).word());
        m.put("pause_reason", c.pauseReason().orElse(null));
        m.put("created_at", c.createdAt().toString());
        m.put("updated_at", c.updatedAt().toString());
        return m;
    }

    /** Changes with every write to the campaign row: its status and its last update. */
    static String etag(Campaign c) {
        return "\"c" + c.id() + "-" + c.updatedAt().toEpochMilli() + "-" + c.status().dbValue() + "\"";
    }

    private static boolean matches(String ifMatch, String etag) {
        return Arrays.stream(ifMatch.split(",")).map(String::strip).anyMatch(t -> t.equals("*") || t.equals(etag));
    }

    private static CampaignStatus status(String text) {
        return Arrays.stream(CampaignStatus.values()).filter(st -> st.dbValue().equals(text)).findFirst()
                .orElseThrow(() -> ApiException.invalid("status", "one of " + Arrays.stream(CampaignStatus.values())
                        .map(CampaignStatus::dbValue).collect(Collectors.joining(", "))));
    }

    static Instant instant(String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw ApiException.invalid("created_since", "must be an RFC 3339 UTC instant such as 2026-12-01T09:00:00Z");
        }
    }
}
