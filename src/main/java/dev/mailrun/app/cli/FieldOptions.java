package dev.mailrun.app.cli;

import dev.mailrun.campaign.model.InvalidFields;
import java.util.Map;

/**
 * A bad field of {@code campaign create} as the CLI's one line: the domain names the field as the API
 * does ({@code startAt}); the command line names the option it came from ({@code --start-at}).
 */
final class FieldOptions {

    private static final Map<String, String> OPTION = Map.ofEntries(Map.entry("name", "--name"),
            Map.entry("template", "--template"), Map.entry("from", "--from"), Map.entry("fromName", "--from-name"),
            Map.entry("replyTo", "--reply-to"), Map.entry("subject", "--subject"), Map.entry("startAt", "--start-at"),
            Map.entry("rate", "--rate"), Map.entry("windows", "--window"), Map.entry("expireAt", "--expire-at"),
            Map.entry("relay", "--relay"), Map.entry("headers", "--header"));

    private FieldOptions() {}

    /** The first problem, led by its option unless its reason already names one. */
    static String line(InvalidFields e) {
        InvalidFields.Problem p = e.problems().get(0);
        String option = OPTION.get(p.field());
        return option == null || p.reason().startsWith("--") ? p.reason() : option + ": " + p.reason();
    }
}
