package dev.mailrun.campaign.model;

import dev.mailrun.mail.HeaderValues;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One version of a campaign's message in an A/B test: what it changes, each empty value meaning the
 * campaign's own. {@code fields} are campaign-level merge fields, the same for every recipient the
 * variant goes to.
 *
 * <p>Written {@code NAME:key=value;key=value}, keys {@code subject}, {@code template},
 * {@code from-name} and {@code field.NAME}; {@code NAME} alone (or {@code NAME:}) is the campaign
 * as created, a control.
 */
public record Variant(String name, Optional<String> subject, Optional<String> template, Optional<String> fromName,
                      Map<String, String> fields) {

    /** The field an A/B test's variants are given in. */
    private static final String VARIANTS = "variants";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,20}");
    private static final Pattern FIELD = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,63}");
    /** Merge fields every recipient has already; a variant may not replace them. */
    private static final java.util.Set<String> BUILT_IN = java.util.Set.of("email", "name", "unsubscribe_url", "web_url", "campaign",
            "preferences_url");

    /** @throws InvalidFields naming the field {@code variants} and, when it can be read, the variant */
    public Variant {
        fields = Map.copyOf(fields);
        if (name == null || !NAME.matcher(name).matches()) {
            throw InvalidFields.of(VARIANTS, "the name '" + name + "' must be 1-20 letters, digits, '-' or '_'");
        }
        subject.ifPresent(s -> require(name, "subject", s, 500));
        fromName.ifPresent(s -> require(name, "from-name", s, 200));
        template.ifPresent(t -> {
            if (!t.matches("[A-Za-z0-9_-]{1,100}")) {
                throw bad(name, "template name '" + t + "' may hold only letters, digits, '-' and '_'");
            }
        });
        fields.forEach((k, v) -> {
            if (!FIELD.matcher(k).matches() || BUILT_IN.contains(k)) {
                throw bad(name, "field." + k + " is not a merge field a variant may set");
            }
            if (v.length() > 1000) {
                throw bad(name, "field." + k + " is longer than 1000 characters");
            }
        });
    }

    /**
     * {@code A:subject=Spring sale;from-name=Shop}.
     *
     * @throws InvalidFields naming the field {@code variants}, the variant and what is wrong
     */
    public static Variant parse(String text) {
        if (text == null || text.isBlank()) {
            throw InvalidFields.of(VARIANTS, "must be NAME:key=value;…, got an empty value");
        }
        int colon = text.indexOf(':');
        String name = (colon < 0 ? text : text.substring(0, colon)).strip();
        String rest = colon < 0 ? "" : text.substring(colon + 1);
        Optional<String> subject = Optional.empty();
        Optional<String> template = Optional.empty();
        Optional<String> fromName = Optional.empty();
        Map<String, String> fields = new LinkedHashMap<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (String pair : rest.split(";")) {
            if (pair.isBlank()) {
                continue;
            }
            int eq = pair.indexOf('=');
            if (eq < 0) {
                throw bad(name, "'" + pair.strip() + "' is not key=value");
            }
            String key = pair.substring(0, eq).strip();
            String value = pair.substring(eq + 1).strip();
            if (!seen.add(key)) {
                throw bad(name, key + " is given twice");
            }
            switch (key) {
                case "subject" -> subject = Optional.of(value);
                case "template" -> template = Optional.of(value);
                case "from-name" -> fromName = Optional.of(value);
                default -> {
                    if (!key.startsWith("field.")) {
                        throw bad(name, "unknown field '" + key + "' (subject, template, from-name or field.NAME)");
                    }
                    fields.put(key.substring("field.".length()), value);
                }
            }
        }
        return new Variant(name, subject, template, fromName, fields);
    }

    private static void require(String variant, String key, String value, int max) {
        if (value.isBlank()) {
            throw bad(variant, key + " must not be empty");
        }
        if (value.length() > max) {
            throw bad(variant, key + " is longer than " + max + " characters");
        }
        HeaderValues.check(key, value).ifPresent(problem -> {
            throw bad(variant, problem);
        });
    }

    private static InvalidFields bad(String variant, String detail) {
        return InvalidFields.about(VARIANTS, variant, detail);
    }
}
