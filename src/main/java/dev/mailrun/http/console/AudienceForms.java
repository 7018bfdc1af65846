package dev.mailrun.http.console;

import dev.mailrun.campaign.model.InvalidFields;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** What the audience pages share: the domain's problems as errors beside their fields, and their links. */
final class AudienceForms {

    private AudienceForms() {}

    /** Each field's reasons (several joined by "; "), keyed as the domain names the field. */
    static Map<String, String> errors(InvalidFields e) {
        Map<String, String> errors = new LinkedHashMap<>();
        for (InvalidFields.Problem p : e.problems()) {
            errors.merge(p.field(), p.reason(), (a, b) -> a + "; " + b);
        }
        return errors;
    }

    /** The console path of a subscriber's page. */
    static String subscriber(String email) {
        return "/subscriber?email=" + encode(email);
    }

    /** The console path of a segment's page. */
    static String segment(String name) {
        return "/segment?name=" + encode(name);
    }

    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
