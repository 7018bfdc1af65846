package dev.mailrun.http.api;

import dev.mailrun.campaign.model.InvalidFields;
import java.util.List;
import java.util.Locale;

/**
 * The domain's field names in the words of the API: the domain names a campaign's fields in camelCase
 * ({@code fromName}, {@code startAt}), the API's JSON in snake_case ({@code from_name}, {@code start_at}),
 * as the command line names them as options ({@code --from-name}).
 */
final class FieldNames {

    private FieldNames() {}

    static String json(String domainName) {
        return domainName.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
    }

    static List<InvalidFields.Problem> json(List<InvalidFields.Problem> problems) {
        return problems.stream().map(p -> new InvalidFields.Problem(json(p.field()), p.item(), p.detail())).toList();
    }
}
