package dev.mailrun.app.cli;

import dev.mailrun.app.Services;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code mailrun campaign clone}: a new draft like a campaign, without its recipients; prints the new id. */
@Command(name = "clone", mixinStandardHelpOptions = true,
        description = {"Create a draft with a campaign's content (the same stored template versions), settings, route, "
                + "lists, files, tracking and A/B test; not its recipients, start or expiry. Prints the new id alone on stdout."})
final class CampaignCloneCommand extends CampaignCommand.CampaignAction {

    @Parameters(paramLabel = "ID", description = "The campaign to clone.") long id;
    @Option(names = "--name", paramLabel = "N", description = "The new campaign's name; default: the original's with \" (copy)\".")
    String name;

    @Override
    int act(Services s) throws Exception {
        out().println(s.campaigns().cloneOf(id, Optional.ofNullable(name)));
        return Cli.OK;
    }
}
