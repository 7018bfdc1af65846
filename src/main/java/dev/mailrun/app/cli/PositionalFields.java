package dev.mailrun.app.cli;

import dev.mailrun.campaign.model.InvalidFields;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Bad values of a command that takes a field as a positional parameter ({@code lists create NAME},
 * {@code subscribers add EMAIL}): that field named by its label, every other by its option
 * ({@link FieldOptions}), all problems on one line.
 */
final class PositionalFields {

    private PositionalFields() {}

    /** @param labels the positional parameters' labels by the domain's field name ({@code name} → {@code NAME}) */
    static UsageException usage(InvalidFields invalid, Map<String, String> labels) {
        return new UsageException(invalid.problems().stream()
                .map(p -> labels.getOrDefault(p.field(), FieldOptions.optionOf(p.field())) + p.item().map(item -> " " + item).orElse("")
                        + ": " + p.detail())
                .collect(Collectors.joining("; ")));
    }
}
