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
            "variants", "--variant", "attachments", "--attach", "attributes", "--attr", "lists", "--list",
            "segments", "--segment");

    private FieldOptions() {}

    static String optionOf(String field) {
        String repeated = REPEATED.get(field);
        return repeated != null ? repeated : "--" + field.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    /**
     * One line per problem: {@code --rate: must be …}, or, for one of a repeatable option's values, the
     * value after its option as it was given ({@code --header X-Tag: contains …}, {@code --window
     * 'Mon-Fri 8-18 UTC': …}).
     */
    static String lines(InvalidFields invalid) {
        return invalid.problems().stream()
                .map(p -> optionOf(p.field()) + p.item().map(item -> " " + item).orElse("") + ": " + p.detail())
                .collect(Collectors.joining(System.lineSeparator()));
    }
}
