package dev.mailrun.http.api;

import dev.mailrun.campaign.Templates;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.mail.template.TemplateProblem;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Templates: list, describe (the columns every recipient needs), render a preview. */
final class TemplatesApi {

    /** A preview's recipient. */
    record PreviewBody(String email, String name, Map<String, String> fields) {}

    private final Templates templates;

    TemplatesApi(ApiServices services) {
        this.templates = services.templates();
    }

    List<Operation> operations() {
        return List.of(
                Operation.read("/templates", ApiScope.TEMPLATES_READ,
                        r -> ApiResponse.json(200, Map.of("templates", templates.names().stream().map(n -> Map.of("name", n)).toList()))),
                Operation.read("/templates/{name}", ApiScope.TEMPLATES_READ, r -> {
                    Templates.Described d = templates.describe(r.var("name"));
                    Map<String, Object> body = new LinkedHashMap<>();
                    body.put("name", d.name());
                    body.put("valid", d.problems().isEmpty());
                    body.put("required_columns", List.copyOf(d.requiredColumns()));
                    body.put("problems", problems(d.problems()));
                    return ApiResponse.json(200, body);
                }),
                // A preview changes nothing: a POST only because it carries the recipient's fields.
                new Operation("POST", "/templates/{name}/preview", ApiScope.TEMPLATES_READ, Operation.Body.JSON,
                        java.util.Optional.empty(), java.util.Set.of(), this::preview));
    }

    private ApiResponse preview(ApiRequest r) {
        PreviewBody body = r.json(PreviewBody.class);
        String email = Strings.required("email", body.email(), EmailAddress.MAX_ADDRESS_OCTETS);
        if (EmailAddress.check(email) instanceof EmailAddress.Invalid invalid) {
            throw ApiException.invalid("email", invalid.reason());
        }
        String name = Strings.optional("name", body.name(), 200).orElse("");
        Map<String, String> fields = Strings.fields("fields", body.fields());
        Templates.Preview p = templates.preview(r.var("name"), email, name, fields);
        if (!p.problems().isEmpty()) {
            throw ApiException.invalid(p.problems().stream()
                    .map(t -> new dev.mailrun.campaign.model.InvalidFields.Problem("template", t.toString())).toList());
        }
        if (p.rejected().isPresent()) {
            throw ApiException.invalid("fields", p.rejected().get());
        }
        return ApiResponse.json(200, Map.of("subject", p.content().orElseThrow().subject(), "text", p.content().orElseThrow().text(),
                "html", p.content().orElseThrow().html()));
    }

    private static List<Map<String, Object>> problems(List<TemplateProblem> problems) {
        return problems.stream().map(p -> Map.<String, Object>of("file", p.file(), "line", p.line(), "column", p.column(),
                "message", p.message())).toList();
    }
}
