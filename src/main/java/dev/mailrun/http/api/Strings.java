package dev.mailrun.http.api;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The checks every string of a request body gets: a length limit, and one line where a header or a log may carry it. */
final class Strings {

    /** Merge fields a JSON recipient may carry, and the longest name of one. */
    static final int MAX_FIELDS = 100;
    static final int MAX_FIELD_NAME = 64;
    static final int MAX_FIELD_VALUE = 10_000;

    private Strings() {}

    static String required(String field, String value, int max) {
        return optional(field, value, max).orElseThrow(() -> ApiException.invalid(field, "is required"));
    }

    /** Absent stays absent; present must be non-blank, at most {@code max} characters, and one line. */
    static Optional<String> optional(String field, String value, int max) {
        if (value == null) {
            return Optional.empty();
        }
        if (value.isBlank()) {
            throw ApiException.invalid(field, "must not be blank");
        }
        if (value.length() > max) {
            throw ApiException.invalid(field, "is longer than " + max + " characters");
        }
        if (value.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw ApiException.invalid(field, "must be one line without control characters (no CR or LF)");
        }
        return Optional.of(value);
    }

    /** Merge fields: names as CSV headers allow, values one line each (so a row is one line of the import). */
    static Map<String, String> fields(String field, Map<String, String> fields) {
        if (fields == null) {
            return Map.of();
        }
        if (fields.size() > MAX_FIELDS) {
            throw ApiException.invalid(field, "more than " + MAX_FIELDS + " fields");
        }
        Map<String, String> checked = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : fields.entrySet()) {
            String name = e.getKey();
            if (!name.matches("[A-Za-z][A-Za-z0-9_]{0," + (MAX_FIELD_NAME - 1) + "}")) {
                throw ApiException.invalid(field + "." + Shown.of(name), "field names are a letter, then letters, digits and '_' (at most "
                        + MAX_FIELD_NAME + ")");
            }
            if (e.getValue() == null) {
                throw ApiException.invalid(field + "." + name, "must be a string, not null");
            }
            if (e.getValue().length() > MAX_FIELD_VALUE) {
                throw ApiException.invalid(field + "." + name, "is longer than " + MAX_FIELD_VALUE + " characters");
            }
            if (e.getValue().chars().anyMatch(c -> c < 0x20 && c != '\t' || c == 0x7f)) {
                throw ApiException.invalid(field + "." + name, "must be one line without control characters (no CR or LF)");
            }
            checked.put(name, e.getValue());
        }
        return checked;
    }
}
