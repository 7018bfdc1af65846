package dev.mailrun.app.cli;

import dev.mailrun.campaign.model.InvalidFields;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The domain's field names in the words of the command line: {@code fromName} is {@code --from-name},
 * a list field is its repeatable option ({@code windows}: {@code --window}). Every problem of an
 * operator's request becomes one line naming its option.
 */
final class FieldOptions {

    /** Fields whose option is not their name in kebab case: the repeatable ones, named in the singular. */
    private static final Map<String, String> REPEATED = Map.of("windows", "--window", "headers", "--header",
            "variants", "--variant", "attachments", "--attach", "fields", "--fields");

    private FieldOptions() {}

    static String optionOf(String field) {
        String repeated = REPEATED.get(field);
        return repeated != null ? repeated : "--" + field.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    /** One line per problem, {@code --rate: must be …}. */
    static String lines(InvalidFields invalid) {
        return invalid.problems().stream()
                .map(p -> optionOf(p.field()) + ": " + p.reason())
                .collect(Collectors.joining(System.lineSeparator()));
    }
}
