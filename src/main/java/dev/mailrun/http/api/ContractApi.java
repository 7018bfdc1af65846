package dev.mailrun.http.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * {@code GET /api/v1/openapi.json}: the API's contract, docs/api/openapi.yaml (packaged into the jar
 * as it is) served as JSON. Any valid token may read it.
 */
final class ContractApi {

    static final String RESOURCE = "openapi.yaml";

    private final byte[] json;

    ContractApi() {
        this.json = load();
    }

    List<Operation> operations() {
        return List.of(Operation.anyToken("/openapi.json", r -> ApiResponse.raw(200, ApiResponse.JSON, json)));
    }

    /** The contract as JSON bytes. */
    static byte[] load() {
        try (InputStream in = ContractApi.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the jar");
            }
            return new ObjectMapper().writeValueAsBytes(new ObjectMapper(new YAMLFactory()).readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
