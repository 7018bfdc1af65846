package dev.mailrun.http.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.mailrun.campaign.audience.Attributes;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * An NDJSON upload of people (one {@code {"email", "name"?, "attributes"?}} object a line) turned
 * into the CSV file the list import reads, streamed in two passes over the file — the first finds the
 * attribute names (the CSV header), the second writes one CSV line per NDJSON line — so memory does
 * not grow with the upload and each row's CSV line is its NDJSON line + 1 (the header). Attribute
 * values become text, numbers and true/false as JSON writes them, as an import stores them. The file
 * is checked whole first, as a CSV file is: a line that is not such an object is refused, naming it,
 * before anything is imported; an address or attributes the import rejects are its rejects.
 */
final class NdjsonUpload {

    /** The longest line read: far above any row the import keeps ({@code import.max-row-bytes}). */
    static final int MAX_LINE_CHARS = 1 << 20;
    private static final Set<String> KEYS = Set.of("email", "name", "attributes");

    private NdjsonUpload() {}

    /** The CSV file (the caller deletes it) of the NDJSON file {@code ndjson}; a bad line is a 422 naming it. */
    static Path toCsv(Path ndjson) throws IOException {
        Set<String> names = new LinkedHashSet<>();
        each(ndjson, (line, row) -> {
            JsonNode attributes = row.path("attributes");
            Iterator<String> it = attributes.fieldNames();
            while (it.hasNext()) {
                String name = it.next();
                if (name.equalsIgnoreCase("email") || name.equalsIgnoreCase("name")) {
                    throw refused(line, "attributes." + Shown.of(name) + ": this name is the address's or the name's; rename the attribute");
                }
                Attributes.nameProblem(name).ifPresent(p -> {
                    throw refused(line, "attributes." + Shown.of(name) + ": " + p);
                });
                names.add(name);
                if (names.size() > Attributes.MAX_KEYS) {
                    throw refused(line, "the upload names more than " + Attributes.MAX_KEYS + " attributes, more than a subscriber may have");
                }
            }
        });
        List<String> header = new ArrayList<>(List.of("email", "name"));
        header.addAll(names);
        Path csv = Files.createTempFile("mailrun-subscribers-", ".csv");
        try (Writer w = Files.newBufferedWriter(csv, StandardCharsets.UTF_8); CSVPrinter p = new CSVPrinter(w, CSVFormat.RFC4180)) {
            p.printRecord(header);
            each(ndjson, (line, row) -> {
                List<String> values = new ArrayList<>(header.size());
                values.add(text(line, "email", row.path("email")));
                values.add(text(line, "name", row.path("name")));
                for (String name : names) {
                    values.add(text(line, "attributes." + name, row.path("attributes").path(name)));
                }
                p.printRecord(values);
            });
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(csv);
            throw e;
        }
        return csv;
    }

    @FunctionalInterface
    private interface Row {
        void accept(long line, JsonNode row) throws IOException;
    }

    /** Each line of the file as an object with only the known keys; the last line may be empty (a final newline). */
    private static void each(Path file, Row then) throws IOException {
        try (Reader in = new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT))) {
            StringBuilder b = new StringBuilder();
            long line = 1;
            boolean any = false;
            int ch;
            while (true) {
                try {
                    ch = in.read();
                } catch (CharacterCodingException e) {
                    throw refused(line, "not UTF-8");
                }
                if (ch == '\n' || ch < 0) {
                    if (ch < 0 && b.isEmpty()) {
                        break;
                    }
                    then.accept(line, object(line, b.toString()));
                    any = true;
                    b.setLength(0);
                    if (ch < 0) {
                        break;
                    }
                    line++;
                    continue;
                }
                if (b.length() >= MAX_LINE_CHARS) {
                    throw refused(line, "longer than " + MAX_LINE_CHARS + " characters");
                }
                b.append((char) ch);
            }
            if (!any) {
                throw new ApiException(422, "Import refused", Failures.UPLOAD + "no line: send one JSON object a line");
            }
        }
    }

    private static JsonNode object(long line, String text) {
        String t = text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
        JsonNode row;
        try {
            row = Json.MAPPER.readTree(t);
        } catch (JsonProcessingException e) {
            throw refused(line, "not JSON: " + Shown.of(e.getOriginalMessage()));
        }
        if (row == null || !row.isObject()) {
            throw refused(line, "must be a JSON object {\"email\", \"name\", \"attributes\"}");
        }
        Iterator<String> keys = row.fieldNames();
        while (keys.hasNext()) {
            String key = keys.next();
            if (!KEYS.contains(key)) {
                throw refused(line, Shown.of(key) + ": unknown key (expected email, name, attributes)");
            }
        }
        if (!row.path("attributes").isMissingNode() && !row.path("attributes").isObject()) {
            throw refused(line, "attributes: must be an object");
        }
        return row;
    }

    /** A value as the CSV cell: a string as it is, a number or true/false as JSON writes it, absent as empty. */
    private static String text(long line, String field, JsonNode value) {
        if (value.isMissingNode() || value.isNull() && !field.startsWith("attributes.")) {
            return "";
        }
        String text;
        if (value.isTextual()) {
            text = value.asText();
        } else if (value.isNumber() || value.isBoolean()) {
            if (!field.startsWith("attributes.")) {
                throw refused(line, field + ": must be a string");
            }
            text = value.toString();
        } else {
            throw refused(line, field + ": must be a string" + (field.startsWith("attributes.") ? ", a number or true/false" : ""));
        }
        if (text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0) {
            throw refused(line, field + ": must be one line (no CR or LF)");
        }
        return text;
    }

    private static ApiException refused(long line, String reason) {
        return new ApiException(422, "Import refused", Failures.UPLOAD + "line " + line + ": " + reason);
    }
}
