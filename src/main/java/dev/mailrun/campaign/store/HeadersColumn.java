package dev.mailrun.campaign.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mailrun.campaign.model.CustomHeaders;
import java.util.List;

/**
 * campaign.custom_headers: the operator's headers as a JSON array of [name, value] pairs, in order;
 * NULL for none.
 */
final class HeadersColumn {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<List<List<String>>> PAIRS = new TypeReference<>() {};

    private HeadersColumn() {
    }

    static String write(CustomHeaders headers) {
        if (headers.isEmpty()) {
            return null;
        }
        try {
            return JSON.writeValueAsString(headers.list().stream().map(h -> List.of(h.name(), h.value())).toList());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("headers could not be written as JSON", e);
        }
    }

    static CustomHeaders read(String json) {
        if (json == null) {
            return CustomHeaders.NONE;
        }
        try {
            return new CustomHeaders(JSON.readValue(json, PAIRS).stream()
                    .map(pair -> new CustomHeaders.Header(pair.get(0), pair.get(1))).toList());
        } catch (JsonProcessingException | IndexOutOfBoundsException e) {
            // Written only by write() above: anything else is a damaged row, which must not send.
            throw new IllegalStateException("campaign.custom_headers is not a JSON array of [name, value] pairs", e);
        }
    }
}
