package dev.mailrun.http.api;

import dev.mailrun.campaign.audience.SubscriberForm;
import dev.mailrun.campaign.audience.SubscriberPatch;
import dev.mailrun.campaign.audience.SubscriberSearch;
import dev.mailrun.campaign.audience.Subscribers;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.campaign.model.SubscriptionSource;
import dev.mailrun.campaign.store.audience.SubscriberEventTable;
import dev.mailrun.campaign.store.audience.SubscriptionTable;
import java.util.AbstractMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Subscribers, as {@code mailrun subscribers} handles them: upsert one, search (keyset pages), read one
 * with its subscriptions and history, change (name, attributes, status: blocklisted or enabled again),
 * delete. Every rule is {@link Subscribers}'; a bulk upload into a list is {@link ListsApi}'s.
 */
final class SubscribersApi {

    /** The most lists one upsert names. */
    static final int MAX_LISTS = 100;

    record UpsertBody(String email, String name, Map<String, Object> attributes, List<String> lists) {}

    record PatchBody(String name, Map<String, Object> attributes, String status) {}

    private final Subscribers subscribers;

    SubscribersApi(ApiServices services) {
        this.subscribers = services.subscribers();
    }

    List<Operation> operations() {
        return List.of(
                Operation.read("/subscribers", ApiScope.AUDIENCE_READ, this::search)
                        .query("email", "list", "status", "attribute", "value", "limit", "cursor"),
                Operation.write("POST", "/subscribers", ApiScope.AUDIENCE_WRITE, Operation.Body.JSON, "subscriber.upsert", this::upsert),
                Operation.read("/subscribers/{id}", ApiScope.AUDIENCE_READ, this::get),
                Operation.write("PATCH", "/subscribers/{id}", ApiScope.AUDIENCE_WRITE, Operation.Body.JSON, "subscriber.update",
                        this::change),
                Operation.write("DELETE", "/subscribers/{id}", ApiScope.AUDIENCE_WRITE, Operation.Body.NONE, "subscriber.delete",
                        this::delete));
    }

    private ApiResponse search(ApiRequest r) throws Exception {
        int limit = r.intParam("limit", 1, Subscribers.MAX_PAGE, SubscriberSearch.DEFAULT_LIMIT);
        long after = r.param("cursor").map(c -> Cursors.decodeLong("subscribers", c)).orElse(0L);
        Optional<String> attribute = r.param("attribute");
        Optional<String> value = r.param("value");
        if (attribute.isPresent() != value.isPresent()) {
            throw ApiException.invalid(attribute.isPresent() ? "value" : "attribute", "attribute and value are given together");
        }
        Optional<Map.Entry<String, String>> equals = attribute.map(a -> new AbstractMap.SimpleImmutableEntry<>(a, value.get()));
        Subscribers.Page page = subscribers.search(new SubscriberSearch(r.param("email"), r.param("list"), r.param("status"), limit,
                after, equals));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("subscribers", page.rows().stream().map(AudienceJson::subscriber).toList());
        body.put("next_cursor", page.next().map(id -> Cursors.encode("subscribers", id)).orElse(null));
        return ApiResponse.json(200, body);
    }

    private ApiResponse upsert(ApiRequest r) throws Exception {
        UpsertBody body = r.json(UpsertBody.class);
        Strings.required("email", body.email(), 1000);
        List<String> lists = body.lists() == null ? List.of() : body.lists();
        if (lists.size() > MAX_LISTS) {
            throw ApiException.invalid("lists", "at most " + MAX_LISTS + " lists");
        }
        for (int i = 0; i < lists.size(); i++) {
            Strings.required("lists[" + i + "]", lists.get(i), 1000);
        }
        Subscribers.Upserted u = subscribers.upsert(new SubscriberForm(body.email(), Optional.ofNullable(body.name()),
                Optional.ofNullable(body.attributes()), lists), SubscriptionSource.API);
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("subscriber", AudienceJson.subscriber(u.subscriber()));
        answer.put("created", u.created());
        answer.put("subscribed_to", u.subscribedTo());
        return ApiResponse.json(u.created() ? 201 : 200, answer);
    }

    private ApiResponse get(ApiRequest r) throws Exception {
        Subscribers.Detail d = subscribers.get(r.id("id")).orElseThrow(() -> notFound(r));
        Map<String, Object> body = AudienceJson.subscriber(d.subscriber());
        body.put("subscriptions", d.subscriptions().stream().map(SubscribersApi::subscription).toList());
        body.put("history", d.history().stream().map(SubscribersApi::event).toList());
        return ApiResponse.json(200, body);
    }

    private ApiResponse change(ApiRequest r) throws Exception {
        long id = r.id("id");
        PatchBody body = r.json(PatchBody.class);
        Optional<String> name = Optional.ofNullable(body.name());
        if (name.isPresent() && name.get().length() > 1000) {
            throw ApiException.invalid("name", "is longer than 1000 characters");
        }
        Subscribers.Changed changed = subscribers.change(id, new SubscriberPatch(name, Optional.ofNullable(body.attributes()),
                Optional.ofNullable(body.status())), SubscriptionSource.API).orElseThrow(() -> notFound(r));
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("subscriber", AudienceJson.subscriber(changed.subscriber()));
        answer.put("changed", changed.changed());
        return ApiResponse.json(200, answer);
    }

    private ApiResponse delete(ApiRequest r) throws Exception {
        long id = r.id("id");
        if (!subscribers.delete(id, SubscriptionSource.API)) {
            throw notFound(r);
        }
        return ApiResponse.json(200, Map.of("id", id, "deleted", true));
    }

    private static ApiException notFound(ApiRequest r) {
        return ApiException.notFound("no subscriber with id " + Shown.of(r.var("id")));
    }

    private static Map<String, Object> subscription(SubscriptionTable.Stored s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("list_id", s.listId());
        m.put("list", s.listName());
        m.put("status", s.status().dbValue());
        m.put("source", s.source().dbValue());
        m.put("created_at", s.createdAt().toString());
        m.put("updated_at", s.updatedAt().toString());
        return m;
    }

    private static Map<String, Object> event(SubscriberEventTable.Stored e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("at", e.at().toString());
        m.put("kind", e.kind());
        m.put("list", e.listName().orElse(null));
        m.put("detail", e.detail().orElse(null));
        return m;
    }
}
