package dev.mailrun.campaign.audience;

import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.mail.HeaderValues;
import java.util.List;
import java.util.Optional;

/**
 * A subscriber's name: at most {@value #MAX_CHARS} characters and fit for a header, as a recipient's
 * name is (it becomes the To display name when a list is sent to).
 */
public final class SubscriberNames {

    static final int MAX_CHARS = 200;

    private SubscriberNames() {}

    /** The name stripped, empty when blank; a problem of {@code name} added when it cannot be one. */
    public static Optional<String> checked(String name, List<InvalidFields.Problem> problems) {
        String s = name == null ? "" : name.strip();
        if (s.isEmpty()) {
            return Optional.empty();
        }
        if (s.length() > MAX_CHARS) {
            problems.add(new InvalidFields.Problem("name", "is longer than " + MAX_CHARS + " characters"));
        } else {
            HeaderValues.problem(s).ifPresent(p -> problems.add(new InvalidFields.Problem("name", p)));
        }
        return Optional.of(s);
    }
}
