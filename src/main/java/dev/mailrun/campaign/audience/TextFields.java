package dev.mailrun.campaign.audience;

import dev.mailrun.campaign.model.InvalidFields;
import java.util.List;
import java.util.Optional;

/** The checks of the audience's text fields: one line, bounded, every problem added to the request's list. */
final class TextFields {

    private TextFields() {}

    /**
     * {@code value} stripped, or empty when it is blank; a problem of {@code field} added when it is
     * longer than {@code max} characters or not one line of text.
     */
    static Optional<String> oneLine(String field, String value, int max, List<InvalidFields.Problem> problems) {
        String s = value == null ? "" : value.strip();
        if (s.isEmpty()) {
            return Optional.empty();
        }
        if (s.length() > max) {
            problems.add(new InvalidFields.Problem(field, "is longer than " + max + " characters"));
        } else if (s.chars().anyMatch(TextFields::isControl)) {
            problems.add(new InvalidFields.Problem(field, "must be one line of text without control characters"));
        }
        return Optional.of(s);
    }

    /** The C0 and C1 controls, DEL, and the Unicode line and paragraph separators. */
    static boolean isControl(int ch) {
        return ch < 0x20 || ch >= 0x7f && ch <= 0x9f || ch == 0x2028 || ch == 0x2029;
    }

    static void throwIfAny(List<InvalidFields.Problem> problems) {
        if (!problems.isEmpty()) {
            throw new InvalidFields(problems);
        }
    }
}
