package dev.mailrun.mail.template;

import dev.mailrun.mail.HeaderValues;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import java.util.List;
import java.util.Optional;

/**
 * Parses {@code template.properties}: {@code key = value} lines, {@code #} comments. Read by hand
 * rather than with {@link java.util.Properties} so every problem carries its line number.
 */
final class TemplateProperties {

    private static final List<String> KEYS = List.of("from", "reply-to");

    private TemplateProperties() {
    }

    static TemplateDefaults parse(String file, String source, List<TemplateProblem> problems) {
        Optional<String> from = Optional.empty();
        Optional<String> replyTo = Optional.empty();
        String[] lines = source.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            int lineNumber = i + 1;
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int equals = line.indexOf('=');
            if (equals < 0) {
                problems.add(new TemplateProblem(file, lineNumber, 1, "expected 'key = value'"));
                continue;
            }
            String key = line.substring(0, equals).strip();
            String value = line.substring(equals + 1).strip();
            if (!KEYS.contains(key)) {
                problems.add(new TemplateProblem(file, lineNumber, 1,
                        "unknown key '" + key + "' (known: " + String.join(", ", KEYS) + ")"));
                continue;
            }
            Optional<String> problem = addressProblem(key, value);
            if (problem.isPresent()) {
                problems.add(new TemplateProblem(file, lineNumber, lines[i].indexOf('=') + 2, problem.get()));
            } else if (key.equals("from")) {
                from = Optional.of(value);
            } else {
                replyTo = Optional.of(value);
            }
        }
        return new TemplateDefaults(from, replyTo);
    }

    private static Optional<String> addressProblem(String key, String value) {
        Optional<String> header = HeaderValues.check(key, value);
        if (header.isPresent()) {
            return header;
        }
        try {
            new InternetAddress(value, true).validate();
            return Optional.empty();
        } catch (AddressException e) {
            return Optional.of(key + ": not a valid address: " + e.getMessage());
        }
    }
}
