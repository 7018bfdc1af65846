package dev.mailrun.http.console;

import dev.mailrun.events.EventFilters;
import dev.mailrun.events.EventLog;
import dev.mailrun.events.store.DeliveryTable;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /console/events}: the endpoints' health as {@code mailrun events endpoints} shows it, the
 * newest deliveries filtered as {@code events list} filters them, and replay, discard and enable —
 * each one call of {@link EventLog}, as the CLI and the API make it, with a required reason that the
 * events audit keeps beside the actor {@code console:<token name>}. A form that cannot be acted on
 * is shown again (422) with what to change beside its field.
 */
final class EventsPage {

    private static final int NEWEST = 50;
    private static final int MAX_WHY = 1_000;
    private static final int MAX_FIELD = 200;

    private final EventLog log;
    private final Views views;

    EventsPage(ConsoleServices services, Views views) {
        this.log = services.api().events();
        this.views = views;
    }

    Answer show(ConsoleRequest r) throws Exception {
        return page(r, 200, Map.of(), Map.of());
    }

    Answer replay(ConsoleRequest r) throws Exception {
        Map<String, String> errors = new LinkedHashMap<>();
        String endpoint = endpoint(r, "replay", errors);
        Optional<Instant> since = required(r, "since", "replay", errors).flatMap(s -> instant(s, "replay-since", errors));
        String why = why(r, "replay", errors);
        if (!errors.isEmpty()) {
            return page(r, 422, r.form(), errors);
        }
        return onEndpoint(r, "replay", errors, () -> {
            long n = log.replay(endpoint, since.orElseThrow(), actor(r), why);
            return n + " delivery(ies) to " + endpoint + " since " + since.get() + " are pending again.";
        });
    }

    Answer discard(ConsoleRequest r) throws Exception {
        Map<String, String> errors = new LinkedHashMap<>();
        String endpoint = endpoint(r, "discard", errors);
        Optional<DeliveryTable.Status> status = Optional.empty();
        try {
            status = EventFilters.discardable(r.field("status").orElse(null));
        } catch (IllegalArgumentException e) {
            errors.put("discard-status", e.getMessage());
        }
        // As events discard takes them: a type or prefix, and only events that happened before an instant.
        Optional<String> type = checked(errors, "discard-type", () -> EventFilters.type(r.field("type").orElse(null)));
        Optional<Instant> before = r.field("before").flatMap(b -> instant(b, "discard-before", errors));
        String why = why(r, "discard", errors);
        if (!errors.isEmpty()) {
            return page(r, 422, r.form(), errors);
        }
        DeliveryTable.Filter filter = new DeliveryTable.Filter(Optional.of(endpoint), status, type, before);
        return onEndpoint(r, "discard", errors, () -> log.discard(filter, actor(r), why) + " delivery(ies) to " + endpoint
                + " discarded.");
    }

    Answer enable(ConsoleRequest r) throws Exception {
        Map<String, String> errors = new LinkedHashMap<>();
        String endpoint = endpoint(r, "enable", errors);
        String why = why(r, "enable", errors);
        if (!errors.isEmpty()) {
            return page(r, 422, r.form(), errors);
        }
        return onEndpoint(r, "enable", errors, () -> log.enable(endpoint, actor(r), why)
                ? endpoint + " is enabled: its deliveries are tried again." : endpoint + " was not disabled.");
    }

    @FunctionalInterface
    private interface Change {
        String run() throws Exception;
    }

    /** Runs one change; an endpoint not in events.endpoints is named beside the endpoint field. */
    private Answer onEndpoint(ConsoleRequest r, String form, Map<String, String> errors, Change change) throws Exception {
        String done;
        try {
            done = change.run();
        } catch (EventLog.UnknownEndpoint e) {
            errors.put(form + "-endpoint", e.getMessage());
            return page(r, 422, r.form(), errors);
        }
        r.session().flash(false, done);
        return Answer.redirect(ConsoleHandler.PREFIX + "/events");
    }

    private Answer page(ConsoleRequest r, int status, Map<String, String> values, Map<String, String> errors) throws Exception {
        Map<String, Object> model = new HashMap<>();
        Map<String, String> filterErrors = new LinkedHashMap<>();
        DeliveryTable.Filter filter = new DeliveryTable.Filter(
                checked(filterErrors, "endpoint", () -> EventFilters.endpoint(r.param("endpoint").orElse(null))),
                checked(filterErrors, "status", () -> EventFilters.status(r.param("status").orElse(null))),
                checked(filterErrors, "type", () -> EventFilters.type(r.param("type").orElse(null))), Optional.empty());
        Optional<DeliveryTable.Position> older = checked(filterErrors, "older", () -> older(r.param("older").orElse(null)));
        model.put("endpoints", log.endpoints().stream().map(EventsPage::endpoint).toList());
        // Keyset paging: one more than a page says whether there are older ones; the link carries the last row shown.
        List<DeliveryTable.Listed> rows = filterErrors.isEmpty() ? log.list(filter, older, NEWEST + 1) : List.of();
        List<DeliveryTable.Listed> shown = rows.subList(0, Math.min(NEWEST, rows.size()));
        model.put("deliveries", shown.stream().map(EventsPage::delivery).toList());
        model.put("olderHref", rows.size() > NEWEST ? filtered(r) + "older=" + shown.get(shown.size() - 1).event().seq() + ':'
                + shown.get(shown.size() - 1).endpoint() : "");
        model.put("newestHref", filtered(r));
        model.put("paged", older.isPresent());
        model.put("filter", Map.of("endpoint", r.param("endpoint").orElse(""), "status", r.param("status").orElse(""),
                "type", r.param("type").orElse("")));
        model.put("filterErrors", filterErrors);
        model.put("statuses", Arrays.stream(DeliveryTable.Status.values()).map(DeliveryTable.Status::dbValue).toList());
        // What the replay form was sent with, shown again beside its errors (every key present: strict variables).
        model.put("values", Map.of("endpoint", values.getOrDefault("endpoint", ""), "since", values.getOrDefault("since", ""),
                "type", values.getOrDefault("type", ""), "before", values.getOrDefault("before", "")));
        model.put("errors", errors);
        model.put("newest", NEWEST);
        return new Answer.Page(status, views.render("events", r.session(), model));
    }

    /** {@code older=<seq>:<endpoint>}: the last delivery of the page before, as its Older link gave it. */
    private static Optional<DeliveryTable.Position> older(String value) {
        if (value == null) {
            return Optional.empty();
        }
        int colon = value.indexOf(':');
        if (colon < 1 || colon > 18 || !value.substring(0, colon).chars().allMatch(Character::isDigit)) {
            throw new IllegalArgumentException("not a position an Older link gave out");
        }
        return Optional.of(new DeliveryTable.Position(Long.parseLong(value.substring(0, colon)),
                EventFilters.endpoint(value.substring(colon + 1)).orElseThrow()));
    }

    /** This page with the same filters, ready for one more parameter. */
    private static String filtered(ConsoleRequest r) {
        StringBuilder q = new StringBuilder(ConsoleHandler.PREFIX + "/events?");
        for (String name : List.of("endpoint", "status", "type")) {
            r.param(name).ifPresent(v -> q.append(name).append('=').append(URLEncoder.encode(v, StandardCharsets.UTF_8)).append('&'));
        }
        return q.toString();
    }

    private static String endpoint(ConsoleRequest r, String form, Map<String, String> errors) {
        Optional<String> name = required(r, "endpoint", form, errors);
        if (name.isPresent() && name.get().length() > MAX_FIELD) {
            errors.put(form + "-endpoint", "at most " + MAX_FIELD + " characters");
        }
        return name.orElse("");
    }

    private static Optional<String> required(ConsoleRequest r, String field, String form, Map<String, String> errors) {
        Optional<String> value = r.field(field);
        if (value.isEmpty()) {
            errors.put(form + "-" + field, "required");
        }
        return value;
    }

    private static String why(ConsoleRequest r, String form, Map<String, String> errors) {
        Optional<String> why = r.field("why");
        if (why.isEmpty() || why.get().length() > MAX_WHY) {
            errors.put(form + "-why", "say why (1-" + MAX_WHY + " characters): it is kept in the events audit with your name");
        }
        return why.orElse("");
    }

    private static Optional<Instant> instant(String text, String key, Map<String, String> errors) {
        if (text.length() > 40) {
            errors.put(key, "must be an RFC 3339 UTC instant such as 2026-12-01T09:00:00Z (at most 40 characters)");
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.parse(text));
        } catch (DateTimeParseException e) {
            errors.put(key, "must be an RFC 3339 UTC instant such as 2026-12-01T09:00:00Z");
            return Optional.empty();
        }
    }

    private static <T> Optional<T> checked(Map<String, String> errors, String field, java.util.function.Supplier<Optional<T>> check) {
        try {
            return check.get();
        } catch (IllegalArgumentException e) {
            errors.put(field, e.getMessage());
            return Optional.empty();
        }
    }

    private static String actor(ConsoleRequest r) {
        return "console:" + r.session().caller().name();
    }

    private static Map<String, Object> endpoint(EventLog.EndpointStatus e) {
        Map<String, Object> m = new HashMap<>();
        m.put("name", e.name());
        m.put("state", e.state());
        m.put("pending", e.pending());
        m.put("oldestPending", e.oldestPending().map(Instant::toString).orElse(""));
        m.put("failingSince", e.failingSince().map(Instant::toString).orElse(""));
        m.put("nextAttemptAt", e.nextAttemptAt().map(Instant::toString).orElse(""));
        m.put("disabledAt", e.disabledAt().map(Instant::toString).orElse(""));
        m.put("lastError", e.lastError().orElse(""));
        return m;
    }

    private static Map<String, Object> delivery(DeliveryTable.Listed d) {
        Map<String, Object> m = new HashMap<>();
        m.put("endpoint", d.endpoint());
        m.put("id", d.event().eventId());
        m.put("type", d.event().type());
        m.put("at", d.event().occurredAt().toString());
        m.put("email", d.event().email() == null ? "" : d.event().email());
        m.put("status", d.status().dbValue());
        m.put("attempts", d.attempts());
        m.put("doneAt", d.doneAt() == null ? "" : d.doneAt().toString());
        m.put("lastReply", d.lastReply() == null ? "" : d.lastReply());
        return m;
    }
}
