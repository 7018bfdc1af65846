package dev.mailrun.http.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mailrun.campaign.audience.segment.Segments;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.campaign.store.audience.SegmentTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Segments, as {@code mailrun segments} handles them: list, create, read with its count and preview,
 * change (name, filter), delete, and the count of a filter not saved. A filter is the JSON object of
 * docs/AUDIENCE.md, handed to {@link Segments} as it came; each bad part is a 422 naming its path
 * ({@code filter.and[2].attr}). A segment is named by its name in the path.
 */
final class SegmentsApi {

    static final int DEFAULT_PREVIEW = 10;

    record NewBody(String name, JsonNode filter) {}

    record PatchBody(String name, JsonNode filter) {}

    record CountBody(JsonNode filter) {}

    private final Segments segments;

    SegmentsApi(ApiServices services) {
        this.segments = services.segments();
    }

    List<Operation> operations() {
        return List.of(
                Operation.read("/segments", ApiScope.AUDIENCE_READ, this::all),
                Operation.write("POST", "/segments", ApiScope.AUDIENCE_WRITE, Operation.Body.JSON, "segment.create", this::create),
                // A count changes nothing: it is a POST for its body, and needs only the read scope.
                new Operation("POST", "/segments/count", ApiScope.AUDIENCE_READ, Operation.Body.JSON, Optional.empty(), Set.of(),
                        this::count),
                Operation.read("/segments/{name}", ApiScope.AUDIENCE_READ, this::get).query("preview"),
                Operation.write("PATCH", "/segments/{name}", ApiScope.AUDIENCE_WRITE, Operation.Body.JSON, "segment.update", this::change),
                Operation.write("DELETE", "/segments/{name}", ApiScope.AUDIENCE_WRITE, Operation.Body.NONE, "segment.delete",
                        this::delete));
    }

    private ApiResponse all(ApiRequest r) throws Exception {
        List<Map<String, Object>> all = new ArrayList<>();
        for (SegmentTable.Stored s : segments.list()) {
            all.add(AudienceJson.segment(s, segments.count(s.name())));
        }
        return ApiResponse.json(200, Map.of("segments", all));
    }

    private ApiResponse create(ApiRequest r) throws Exception {
        NewBody body = r.json(NewBody.class);
        String name = Strings.required("name", body.name(), 1000);
        SegmentTable.Stored s = segments.create(name, filter(body.filter()).orElseThrow(() -> ApiException.invalid("filter", "is required")));
        return ApiResponse.json(201, AudienceJson.segment(s, segments.count(s.name())));
    }

    private ApiResponse get(ApiRequest r) throws Exception {
        int preview = r.intParam("preview", 0, Segments.MAX_PREVIEW, DEFAULT_PREVIEW);
        SegmentTable.Stored s = existing(r.var("name"));
        Map<String, Object> body = AudienceJson.segment(s, segments.count(s.name()));
        body.put("preview", preview == 0 ? List.of()
                : segments.previewSegment(s.name(), preview).stream().map(AudienceJson::match).toList());
        return ApiResponse.json(200, body);
    }

    private ApiResponse change(ApiRequest r) throws Exception {
        PatchBody body = r.json(PatchBody.class);
        Optional<String> name = Strings.optional("name", body.name(), 1000);
        existing(r.var("name"));
        SegmentTable.Stored s = segments.update(r.var("name"), name, filter(body.filter()));
        return ApiResponse.json(200, AudienceJson.segment(s, segments.count(s.name())));
    }

    private ApiResponse delete(ApiRequest r) throws Exception {
        SegmentTable.Stored s = existing(r.var("name"));
        segments.delete(s.name());
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("name", s.name());
        answer.put("deleted", true);
        return ApiResponse.json(200, answer);
    }

    private ApiResponse count(ApiRequest r) throws Exception {
        CountBody body = r.json(CountBody.class);
        String filter = filter(body.filter()).orElseThrow(() -> ApiException.invalid("filter", "is required"));
        return ApiResponse.json(200, Map.of("count", segments.countFilter(filter)));
    }

    /** The filter as the JSON text the domain reads; absent (or null) when the body has none. */
    private static Optional<String> filter(JsonNode filter) {
        if (filter == null || filter.isNull() || filter.isMissingNode()) {
            return Optional.empty();
        }
        return Optional.of(filter.toString());
    }

    private SegmentTable.Stored existing(String name) throws Exception {
        return segments.get(name).orElseThrow(() -> ApiException.notFound("no segment named " + Shown.of(name)));
    }
}
