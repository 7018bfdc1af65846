package dev.mailrun.app.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.nio.file.Files;
import java.nio.file.Path;
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

    @Test
    void a_broken_contract_is_reported_by_the_parser() throws Exception {
        String broken = Files.readString(ContractValidator.DOCUMENT)
                .replace("$ref: \"#/components/schemas/CampaignList\"", "$ref: \"#/components/schemas/NoSuchSchema\"")
                .replaceFirst("operationId: listTemplates\n", "operationId: listTemplates\n      responses: 12\n");
        assertThat(parse(broken).getMessages()).isNotEmpty();
    }
}
