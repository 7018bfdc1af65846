package dev.mailrun.http.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.events.EventFilters;
import dev.mailrun.events.EventLog;
import dev.mailrun.events.store.DeliveryTable;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The events outbox (docs/EVENTS.md), as {@code mailrun events …}: deliveries (filters, cursor), the
 * endpoints' state, and the audited changes — replay, discard, enable — each one call of
 * {@link EventLog}, recorded in its audit with the token's name as the actor.
 */
final class EventsApi {

    record ReplayBody(String since, String why) {}

    record DiscardBody(String status, String type, String before, String why) {}

    record EnableBody(String why) {}

    private static final String LISTING = "events";

    private final EventLog log;

    EventsApi(ApiServices services) {
        this.log = services.events();
    }

    List<Operation> operations() {
        return List.of(
                Operation.read("/events", ApiScope.EVENTS_READ, this::list).query("endpoint", "status", "type", "limit", "cursor"),
                Operation.read("/events/endpoints", ApiScope.EVENTS_READ, this::endpoints),
                Operation.write("POST", "/events/endpoints/{name}/replay", ApiScope.EVENTS_WRITE, Operation.Body.JSON,
                        "events.replay", this::replay),
                Operation.write("POST", "/events/endpoints/{name}/discard", ApiScope.EVENTS_WRITE, Operation.Body.JSON,
                        "events.discard", this::discard),
                Operation.write("POST", "/events/endpoints/{name}/enable", ApiScope.EVENTS_WRITE, Operation.Body.JSON,
                        "events.enable", this::enable));
    }

    private ApiResponse list(ApiRequest r) throws Exception {
        int limit = r.intParam("limit", 1, 1000, 100);
        DeliveryTable.Filter filter = new DeliveryTable.Filter(
                checked("endpoint", () -> EventFilters.endpoint(r.param("endpoint").orElse(null))),
                checked("status", () -> EventFilters.status(r.param("status").orElse(null))),
                checked("type", () -> EventFilters.type(r.param("type").orElse(null))), Optional.empty());
        Optional<DeliveryTable.Position> after = r.param("cursor").map(EventsApi::position);
        List<DeliveryTable.Listed> rows = log.list(filter, after, limit + 1);
        List<DeliveryTable.Listed> page = rows.subList(0, Math.min(limit, rows.size()));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("deliveries", page.stream().map(EventsApi::delivery).toList());
        DeliveryTable.Listed last = page.isEmpty() ? null : page.get(page.size() - 1);
        body.put("next_cursor", rows.size() > limit ? Cursors.encode(LISTING, last.event().seq() + ":" + last.endpoint()) : null);
        return ApiResponse.json(200, body);
    }

    private ApiResponse endpoints(ApiRequest r) throws Exception {
        List<Map<String, Object>> list = log.endpoints().stream().map(e -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", e.name());
            m.put("state", e.state());
            m.put("pending", e.pending());
            m.put("oldest_pending", e.oldestPending().map(Instant::toString).orElse(null));
            m.put("failing_since", e.failingSince().map(Instant::toString).orElse(null));
            m.put("next_attempt_at", e.nextAttemptAt().map(Instant::toString).orElse(null));
            m.put("disabled_at", e.disabledAt().map(Instant::toString).orElse(null));
            m.put("last_error", e.lastError().orElse(null));
            return m;
        }).toList();
        return ApiResponse.json(200, Map.of("endpoints", list));
    }

    private ApiResponse replay(ApiRequest r) throws Exception {
        ReplayBody body = r.json(ReplayBody.class);
        Instant since = instant("since", Strings.required("since", body.since(), 40));
        String why = Strings.required("why", body.why(), 1000);
        long n = onEndpoint(r, () -> log.replay(r.var("name"), since, actor(r), why));
        return ApiResponse.json(200, Map.of("endpoint", r.var("name"), "replayed", n));
    }

    private ApiResponse discard(ApiRequest r) throws Exception {
        DiscardBody body = r.json(DiscardBody.class);
        String why = Strings.required("why", body.why(), 1000);
        DeliveryTable.Filter filter = new DeliveryTable.Filter(Optional.of(r.var("name")),
                checked("status", () -> EventFilters.discardable(body.status())),
                checked("type", () -> EventFilters.type(body.type())),
                Strings.optional("before", body.before(), 40).map(b -> instant("before", b)));
        int n = onEndpoint(r, () -> log.discard(filter, actor(r), why));
        return ApiResponse.json(200, Map.of("endpoint", r.var("name"), "discarded", n));
    }

    private ApiResponse enable(ApiRequest r) throws Exception {
        String why = Strings.required("why", r.json(EnableBody.class).why(), 1000);
        boolean enabled = onEndpoint(r, () -> log.enable(r.var("name"), actor(r), why));
        return ApiResponse.json(200, Map.of("endpoint", r.var("name"), "enabled", enabled));
    }

    private static Map<String, Object> delivery(DeliveryTable.Listed d) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("id", d.event().eventId());
        event.put("type", d.event().type());
        event.put("timestamp", d.event().occurredAt().toString());
        event.put("campaign_id", d.event().campaignId());
        event.put("recipient_id", d.event().recipientId());
        event.put("email", d.event().email());
        event.put("data", data(d.event().data()));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("endpoint", d.endpoint());
        m.put("event", event);
        m.put("status", d.status().dbValue());
        m.put("attempts", d.attempts());
        m.put("done_at", d.doneAt() == null ? null : d.doneAt().toString());
        m.put("last_reply", d.lastReply());
        return m;
    }

    /** The type's own fields as stored (the address and import fields are added only on delivery). */
    private static Object data(String stored) {
        if (stored == null) {
            return Map.of();
        }
        try {
            return Json.MAPPER.readTree(stored);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an event's stored fields are not JSON", e);
        }
    }

    @FunctionalInterface
    private interface Call<T> {
        T run() throws Exception;
    }

    /** Runs an operator call on the path's endpoint: one not in events.endpoints is a 404. */
    private static <T> T onEndpoint(ApiRequest r, Call<T> call) throws Exception {
        checked("name", () -> EventFilters.endpoint(r.var("name")));
        try {
            return call.run();
        } catch (EventLog.UnknownEndpoint e) {
            throw ApiException.notFound(e.getMessage());
        }
    }

    private static <T> T checked(String field, Supplier<T> check) {
        try {
            return check.get();
        } catch (IllegalArgumentException e) {
            throw ApiException.invalid(field, e.getMessage());
        }
    }

    private static DeliveryTable.Position position(String cursor) {
        String key = Cursors.decode(LISTING, cursor);
        int colon = key.indexOf(':');
        if (colon < 1 || !key.substring(0, colon).matches("[0-9]{1,18}")) {
            throw ApiException.invalid("cursor", "not a cursor this listing gave out");
        }
        return new DeliveryTable.Position(Long.parseLong(key.substring(0, colon)), key.substring(colon + 1));
    }

    private static Instant instant(String field, String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw ApiException.invalid(field, "must be an RFC 3339 UTC instant such as 2026-12-01T09:00:00Z");
        }
    }

    private static String actor(ApiRequest r) {
        return "api:" + r.caller().name();
    }
}
