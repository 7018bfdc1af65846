package dev.mailrun.events;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The event payload schemas of the API contract (docs/api/openapi.yaml, {@code components/schemas},
 * the body of its {@code webhooks}), as a receiver would check a request body against them: with
 * networknt's JSON Schema validator in its OpenAPI 3.1 dialect.
 */
final class EventSchemas {

    private static final String BASE = "https://mailrun.dev/api/v1/openapi.json";
    private static final Schema BODY = load();

    private EventSchemas() {}

    private static Schema load() {
        try {
            String json = new ObjectMapper(new YAMLFactory()).readTree(Files.readString(Path.of("docs/api/openapi.yaml"))).toString();
            SchemaRegistry registry = SchemaRegistry.withDefaultDialect(Dialects.getOpenApi31(), b -> b.schemas(Map.of(BASE, json)));
            return registry.getSchema(SchemaLocation.of(BASE + "#/components/schemas/EventRequestBody"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every way a request body departs from the contract's EventRequestBody (one Event or an EventBatch); empty when it conforms. */
    static List<String> problems(String body) {
        return BODY.validate(body, InputFormat.JSON).stream().map(Object::toString).toList();
    }
}
