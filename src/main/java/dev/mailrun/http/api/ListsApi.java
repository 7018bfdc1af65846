package dev.mailrun.http.api;

import dev.mailrun.campaign.audience.ImportMode;
import dev.mailrun.campaign.audience.Lists;
import dev.mailrun.campaign.audience.SubscriberImportStoppedException;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.ListOptIn;
import dev.mailrun.campaign.model.ListVisibility;
import dev.mailrun.campaign.store.audience.SubscriberListTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Lists, as {@code mailrun lists} handles them — list with counts, create, read, change, delete — and
 * the bulk upload of people into one ({@code subscribers import}: CSV, or NDJSON turned into CSV by
 * {@link NdjsonUpload}, streamed to a file first as a recipient upload is, with the import's report).
 * A list is named by its name in the path, as on the command line. Every rule is {@link Lists}'.
 */
final class ListsApi {

    record NewBody(String name, String description, String visibility, String optIn) {}

    record PatchBody(String name, String description, String visibility, String optIn) {}

    private final ApiServices s;

    ListsApi(ApiServices services) {
        this.s = services;
    }

    List<Operation> operations() {
        return List.of(
                Operation.read("/lists", ApiScope.AUDIENCE_READ, this::all),
                Operation.write("POST", "/lists", ApiScope.AUDIENCE_WRITE, Operation.Body.JSON, "list.create", this::create),
                Operation.read("/lists/{name}", ApiScope.AUDIENCE_READ, this::get),
                Operation.write("PATCH", "/lists/{name}", ApiScope.AUDIENCE_WRITE, Operation.Body.JSON, "list.update", this::change),
                Operation.write("DELETE", "/lists/{name}", ApiScope.AUDIENCE_WRITE, Operation.Body.NONE, "list.delete", this::delete),
                Operation.write("POST", "/lists/{name}/import", ApiScope.AUDIENCE_WRITE, Operation.Body.UPLOAD, "subscribers.import",
                        this::importUpload).query("mode"));
    }

    private ApiResponse all(ApiRequest r) throws Exception {
        return ApiResponse.json(200, Map.of("lists", s.lists().list().stream().map(AudienceJson::list).toList()));
    }

    private ApiResponse create(ApiRequest r) throws Exception {
        NewBody body = r.json(NewBody.class);
        String name = Strings.required("name", body.name(), 1000);
        Optional<String> description = bounded("description", body.description());
        ListVisibility visibility = Strings.optional("visibility", body.visibility(), 20).map(ListsApi::visibility)
                .orElse(ListVisibility.PRIVATE);
        ListOptIn optIn = Strings.optional("opt_in", body.optIn(), 20).map(ListsApi::optIn).orElse(ListOptIn.SINGLE);
        SubscriberListTable.Stored list = s.lists().create(new Lists.NewList(name, description, visibility, optIn));
        return ApiResponse.json(201, AudienceJson.list(summary(list.name())));
    }

    private ApiResponse get(ApiRequest r) throws Exception {
        return ApiResponse.json(200, AudienceJson.list(summary(r.var("name"))));
    }

    private ApiResponse change(ApiRequest r) throws Exception {
        PatchBody body = r.json(PatchBody.class);
        Optional<String> name = Strings.optional("name", body.name(), 1000);
        Optional<String> description = bounded("description", body.description());
        Optional<ListVisibility> visibility = Strings.optional("visibility", body.visibility(), 20).map(ListsApi::visibility);
        Optional<ListOptIn> optIn = Strings.optional("opt_in", body.optIn(), 20).map(ListsApi::optIn);
        existing(r.var("name"));
        SubscriberListTable.Stored list = s.lists().update(r.var("name"), new Lists.Changes(name, description, visibility, optIn));
        return ApiResponse.json(200, AudienceJson.list(summary(list.name())));
    }

    private ApiResponse delete(ApiRequest r) throws Exception {
        SubscriberListTable.Stored list = existing(r.var("name"));
        long subscriptions = s.lists().delete(list.name());
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("name", list.name());
        answer.put("deleted", true);
        answer.put("subscriptions", subscriptions);
        return ApiResponse.json(200, answer);
    }

    private ApiResponse importUpload(ApiRequest r) throws Exception {
        SubscriberListTable.Stored list = existing(r.var("name"));
        ImportMode mode = r.param("mode").map(ImportMode::parse).orElse(ImportMode.ADD);
        Path upload = r.upload().orElseThrow();
        boolean ndjson = r.uploadType().filter(ApiHandler.UPLOAD_NDJSON::equals).isPresent();
        // The history names the file an import read ("line 3 of api-upload.csv"): not the temporary file's name.
        Path dir = Files.createTempDirectory("mailrun-import-");
        Path named = dir.resolve("api-upload.csv");
        try {
            if (ndjson) {
                Path csv = NdjsonUpload.toCsv(upload);
                Files.move(csv, named);
            } else {
                Files.copy(upload, named);
            }
            return ApiResponse.json(200, AudienceJson.report(s.subscriberImporter().importCsv(list.name(), mode, named,
                    Optional.empty(), n -> { }), ndjson));
        } catch (SubscriberImportStoppedException e) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("type", Problems.TYPE_BASE + "import-stopped");
            body.put("title", "Import stopped");
            body.put("status", 503);
            body.put("detail", e.getMessage());
            body.put("report", AudienceJson.report(e.report(), ndjson));
            return ApiResponse.raw(503, ApiResponse.PROBLEM, Json.bytes(body)).header("Retry-After", "5");
        } finally {
            Files.deleteIfExists(named);
            Files.deleteIfExists(dir);
        }
    }

    private Lists.Summary summary(String name) throws Exception {
        SubscriberListTable.Stored list = existing(name);
        return s.lists().list().stream().filter(l -> l.list().id() == list.id()).findFirst().orElseThrow(() -> notFound(name));
    }

    private SubscriberListTable.Stored existing(String name) throws Exception {
        return s.lists().find(name).orElseThrow(() -> notFound(name));
    }

    private static ApiException notFound(String name) {
        return ApiException.notFound("no list named " + Shown.of(name));
    }

    /** A description: absent stays absent, blank removes it; bounded before the domain's own check. */
    private static Optional<String> bounded(String field, String value) {
        if (value != null && value.length() > 10_000) {
            throw ApiException.invalid(field, "is longer than 10000 characters");
        }
        return Optional.ofNullable(value);
    }

    private static ListVisibility visibility(String text) {
        return ListVisibility.parse(text).orElseThrow(() -> InvalidFields.of("visibility", "must be public or private"));
    }

    private static ListOptIn optIn(String text) {
        return ListOptIn.parse(text).orElseThrow(() -> InvalidFields.of("opt_in", "must be single or double"));
    }
}
