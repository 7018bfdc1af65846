package dev.mailrun.app.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mailrun.testing.JsonNames;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** docs/api/openapi.yaml is a valid OpenAPI 3.1 document, as swagger-parser reads it. */
class OpenApiDocumentTest {

    @TempDir
    Path dir;

    private static SwaggerParseResult parse(String yaml) {
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        options.setValidateInternalRefs(true);
        return new OpenAPIV3Parser().readContents(yaml, null, options);
    }

    @Test
    void the_contract_parses_as_openapi_3_1_without_a_single_message() throws Exception {
        SwaggerParseResult result = parse(Files.readString(ContractValidator.DOCUMENT));
        assertThat(result.getMessages()).isEmpty();
        assertThat(result.getOpenAPI()).isNotNull();
        assertThat(result.getOpenAPI().getOpenapi()).isEqualTo("3.1.0");
        assertThat(result.getOpenAPI().getPaths()).containsKeys("/campaigns", "/campaigns/{id}", "/campaigns/{id}/recipients/import",
                "/suppressions", "/templates/{name}/preview", "/openapi.json");
    }

    /**
     * The contract follows the API's one convention (dev.mailrun.testing.JsonNames): snake_case member names
     * and query parameters, every id an integer (int64) but the email's message_id and an event's UUID.
     */
    @Test
    void every_member_and_query_parameter_is_snake_case_and_every_id_an_int64() {
        JsonNode contract = ContractValidator.read(ContractValidator.DOCUMENT);
        List<String> problems = new ArrayList<>();
        walk(contract, "", contract, problems);
        assertThat(problems).isEmpty();
    }

    private static void walk(JsonNode node, String path, JsonNode contract, List<String> problems) {
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                walk(node.get(i), path + "/" + i, contract, problems);
            }
            return;
        }
        if (!node.isObject()) {
            return;
        }
        if (node.path("properties").isObject()) {
            node.path("properties").fields().forEachRemaining(p -> {
                String at = path + "/properties/" + p.getKey();
                if (!JsonNames.NAME.matcher(p.getKey()).matches()) {
                    problems.add(at + ": not a snake_case name");
                }
                if (JsonNames.isId(p.getKey()) && !p.getKey().equals("message_id") && !isEventUuid(p.getValue())
                        && !isInt64(p.getValue(), contract)) {
                    problems.add(at + ": an id that is not an integer of format int64");
                }
            });
        }
        node.path("required").forEach(r -> {
            if (r.isTextual() && !JsonNames.NAME.matcher(r.asText()).matches()) {
                problems.add(path + "/required: " + r.asText() + " is not a snake_case name");
            }
        });
        if (node.path("in").asText().equals("query") && !JsonNames.NAME.matcher(node.path("name").asText()).matches()) {
            problems.add(path + ": query parameter " + node.path("name").asText() + " is not a snake_case name");
        }
        if (node.path("in").asText().equals("path") && JsonNames.isId(node.path("name").asText())
                && !isInt64(node.path("schema"), contract)) {
            problems.add(path + ": path parameter " + node.path("name").asText() + " is not an integer of format int64");
        }
        node.fields().forEachRemaining(f -> {
            if (!f.getKey().equals("examples") && !f.getKey().equals("example")) {
                walk(f.getValue(), path + "/" + f.getKey(), contract, problems);
            }
        });
    }

    private static boolean isEventUuid(JsonNode schema) {
        return schema.path("$ref").asText().equals("#/components/schemas/EventUuid");
    }

    private static boolean isInt64(JsonNode schema, JsonNode contract) {
        JsonNode s = schema;
        while (s.has("$ref")) {
            s = contract.at(s.path("$ref").asText().substring(1));
        }
        JsonNode type = s.path("type");
        boolean integer = type.asText().equals("integer")
                || type.isArray() && type.toString().contains("\"integer\"") && !type.toString().contains("\"string\"");
        return integer && s.path("format").asText().equals("int64");
    }

    @Test
    void a_broken_contract_is_reported_by_the_parser() throws Exception {
        String broken = Files.readString(ContractValidator.DOCUMENT)
                .replace("$ref: \"#/components/schemas/CampaignList\"", "$ref: \"#/components/schemas/NoSuchSchema\"")
                .replaceFirst("operationId: listTemplates\n", "operationId: listTemplates\n      responses: 12\n");
        assertThat(parse(broken).getMessages()).isNotEmpty();
    }
}
