package dev.mailrun.app.cli;

import dev.mailrun.app.Services;
import dev.mailrun.campaign.audience.signup.ConsentRecords;
import dev.mailrun.campaign.model.InvalidFields;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "language", mixinStandardHelpOptions = true,
        description = "Sets the language (en, de) of a list's sign-up and unsubscribe pages and confirmation message; without LANG, signup.language.")
final class ListLanguageCommand extends ContextCommand {

    @Parameters(index = "0", paramLabel = "NAME", description = "The list.")
    String name;

    @Parameters(index = "1", arity = "0..1", paramLabel = "LANG", description = "en or de; left out: the configured default.")
    String language;

    @Override
    int run(Services s) throws Exception {
        try {
            new ConsentRecords(s.dataSource()).language(name, Optional.ofNullable(language).map(String::strip));
        } catch (InvalidFields e) {
            throw PositionalFields.usage(e, Map.of("list", "NAME", "language", "LANG"));
        }
        out().println("list " + name.strip() + ": language " + (language == null ? "signup.language" : language.strip()));
        return Cli.OK;
    }
}
