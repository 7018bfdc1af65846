package dev.mailrun.http.api;

import dev.mailrun.campaign.Templates;
import dev.mailrun.campaign.content.TemplateStore;
import dev.mailrun.campaign.content.TemplateStore.Saved;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.store.TemplateTable.Version;
import dev.mailrun.mail.template.TemplateSource;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The stored templates (docs/CONTENT.md), as the {@code template} commands: list, save a version, read
 * one (the latest by default), list versions, diff two, delete one, and render a preview of one.
 */
final class TemplatesApi {

    /** A template's text, as {@code template import} reads it from its folder's files. */
    record SaveBody(String name, String subject, String text, String html, String properties) {}

    /** A preview's version (the latest when absent) and recipient. */
    record PreviewBody(Integer version, String email, String name, Map<String, String> fields) {}

    /** The recipient a preview has when the request names none. */
    static final String PREVIEW_EMAIL = "reader@example.com";
    private static final String NAME = "[A-Za-z0-9][A-Za-z0-9_-]{0,63}";

    private final TemplateStore store;

    TemplatesApi(ApiServices services) {
        this.store = services.templateStore();
    }

    List<Operation> operations() {
        return List.of(
                Operation.read("/templates", ApiScope.TEMPLATES_READ, r -> ApiResponse.json(200,
                        Map.of("templates", store.list().stream().map(TemplateJson::stored).toList()))),
                Operation.write("POST", "/templates", ApiScope.TEMPLATES_WRITE, Operation.Body.JSON, "template.save", this::save),
                Operation.read("/templates/{name}", ApiScope.TEMPLATES_READ,
                        r -> ApiResponse.json(200, TemplateJson.version(version(r.var("name"), Optional.empty(), false)))),
                Operation.read("/templates/{name}/versions", ApiScope.TEMPLATES_READ, r -> ApiResponse.json(200,
                        Map.of("name", r.var("name"), "versions", store.versions(r.var("name")).stream().map(TemplateJson::summary).toList()))),
                Operation.read("/templates/{name}/versions/{version}", ApiScope.TEMPLATES_READ, r -> ApiResponse.json(200,
                        TemplateJson.version(version(r.var("name"), Optional.of(pathVersion(r)), false)))),
                Operation.read("/templates/{name}/diff", ApiScope.TEMPLATES_READ, this::diff).query("from", "to"),
                Operation.write("DELETE", "/templates/{name}/versions/{version}", ApiScope.TEMPLATES_WRITE, Operation.Body.NONE,
                        "template.delete", this::delete),
                // A preview changes nothing: a POST only because it carries the recipient's fields.
                new Operation("POST", "/templates/{name}/preview", ApiScope.TEMPLATES_READ, Operation.Body.JSON,
                        Optional.empty(), Set.of(), this::preview));
    }

    /**
     * Stores the text as the template's next version when it compiles and differs from the latest (201),
     * answers the latest when it is the same (200); otherwise 422 with every problem, each under the
     * part it is in, and nothing stored.
     */
    private ApiResponse save(ApiRequest r) throws Exception {
        SaveBody b = r.json(SaveBody.class);
        List<InvalidFields.Problem> missing = new ArrayList<>();
        String name = b.name() == null ? "" : b.name();
        if (name.isEmpty()) {
            missing.add(new InvalidFields.Problem("name", "is required"));
        } else if (!name.matches(NAME)) {
            missing.add(new InvalidFields.Problem("name", "letters, digits, '-' and '_' (at most 64), starting with a letter or digit"));
        }
        required("subject", b.subject(), missing);
        required("text", b.text(), missing);
        required("html", b.html(), missing);
        if (!missing.isEmpty()) {
            throw ApiException.invalid(missing);
        }
        TemplateSource source = TemplateSource.of(name, b.subject(), b.text(), b.html(), Optional.ofNullable(b.properties()));
        Saved saved = store.save(source, by(r));
        if (saved instanceof Saved.Refused refused) {
            throw ApiException.invalid(TemplateJson.problems(name, refused.problems()));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        if (saved instanceof Saved.NewVersion v) {
            body.put("version", v.version());
            body.put("created", v.created());
            return ApiResponse.json(201, body).header("Location", ApiHandler.PREFIX + "/templates/" + name + "/versions/" + v.version());
        }
        body.put("version", ((Saved.Unchanged) saved).version());
        body.put("created", false);
        return ApiResponse.json(200, body);
    }

    private static void required(String field, String value, List<InvalidFields.Problem> problems) {
        if (value == null) {
            problems.add(new InvalidFields.Problem(field, "is required"));
        }
    }

    private ApiResponse diff(ApiRequest r) throws Exception {
        String name = r.var("name");
        int from = queryVersion(r, "from");
        int to = queryVersion(r, "to");
        version(name, Optional.of(from), true);
        version(name, Optional.of(to), true);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        body.put("from", from);
        body.put("to", to);
        body.put("lines", store.diff(name, from, to));
        return ApiResponse.json(200, body);
    }

    /** Deletes one version; 409 naming the campaigns while any pins it. */
    private ApiResponse delete(ApiRequest r) throws Exception {
        String name = r.var("name");
        int version = pathVersion(r);
        version(name, Optional.of(version), false);
        try {
            store.delete(name, version);
        } catch (CampaignException e) {
            // It exists (read just above): what is left is a campaign pinning it, or a delete meanwhile.
            throw ApiException.conflict(e.getMessage());
        }
        return ApiResponse.json(200, Map.of("name", name, "version", version));
    }

    /** Renders a stored version for one recipient ({@link Templates#preview(TemplateSource, String, String, Map)}); stores nothing. */
    private ApiResponse preview(ApiRequest r) throws Exception {
        PreviewBody body = r.json(PreviewBody.class);
        String email = Strings.optional("email", body.email(), EmailAddress.MAX_ADDRESS_OCTETS).orElse(PREVIEW_EMAIL);
        if (EmailAddress.check(email) instanceof EmailAddress.Invalid invalid) {
            throw ApiException.invalid("email", invalid.reason());
        }
        String name = Strings.optional("name", body.name(), 200).orElse("");
        Map<String, String> fields = Strings.fields("fields", body.fields());
        if (body.version() != null && body.version() < 1) {
            throw ApiException.invalid("version", "versions start at 1, got " + body.version());
        }
        Version v = version(r.var("name"), Optional.ofNullable(body.version()), true);
        Templates.Preview p = Templates.preview(TemplateStore.source(v), email, name, fields);
        if (!p.problems().isEmpty()) {
            // A stored version compiles; what is left is a field the template uses that the request lacks.
            throw ApiException.invalid(p.problems().stream().map(t -> new InvalidFields.Problem("fields", t.toString())).toList());
        }
        if (p.rejected().isPresent()) {
            throw ApiException.invalid("fields", p.rejected().get());
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("name", v.name());
        answer.put("version", v.version());
        answer.put("subject", p.content().orElseThrow().subject());
        answer.put("text", p.content().orElseThrow().text());
        answer.put("html", p.content().orElseThrow().html());
        return ApiResponse.json(200, answer);
    }

    /**
     * One stored version (the latest when {@code version} is empty): a template that is not stored is
     * 404; a version it does not have is 404 in a path, 422 naming {@code version} in a body or query.
     */
    private Version version(String name, Optional<Integer> version, boolean asField) throws SQLException {
        try {
            return store.version(name, version);
        } catch (CampaignException e) {
            if (version.isEmpty()) {
                throw ApiException.notFound(e.getMessage());
            }
            store.versions(name);
            throw asField ? ApiException.invalid("version", e.getMessage()) : ApiException.notFound(e.getMessage());
        }
    }

    private static int pathVersion(ApiRequest r) {
        String v = r.var("version");
        if (!v.matches("[1-9][0-9]{0,8}")) {
            throw ApiException.notFound("template " + Shown.of(r.var("name")) + " has no version " + Shown.of(v));
        }
        return Integer.parseInt(v);
    }

    private static int queryVersion(ApiRequest r, String field) {
        String v = r.param(field).orElseThrow(() -> ApiException.invalid(field, "is required"));
        if (!v.matches("[1-9][0-9]{0,8}")) {
            throw ApiException.invalid(field, "must be a version number (1 or more), got '" + Shown.of(v) + "'");
        }
        return Integer.parseInt(v);
    }

    /** Who saves through the API, as the suppression list and the events audit name the API's callers. */
    static String by(ApiRequest r) {
        return "api:" + r.caller().name();
    }
}
