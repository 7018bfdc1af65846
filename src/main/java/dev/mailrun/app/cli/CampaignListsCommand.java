package dev.mailrun.app.cli;

import dev.mailrun.app.Services;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code mailrun campaign lists}: the lists a campaign is sent to, and changing them while it is a draft. */
@Command(name = "lists", mixinStandardHelpOptions = true,
        description = {"Print the lists a campaign is sent to, one a line; with --list or --none, replace them first "
                + "(a draft only). Its subscribers become recipients when it starts (docs/AUDIENCE.md)."})
final class CampaignListsCommand extends CampaignCommand.CampaignAction {

    @Parameters(paramLabel = "ID", description = "Campaign id.") long id;
    @Option(names = "--list", paramLabel = "NAME", description = "A list to send to (repeatable): replaces the campaign's lists.")
    List<String> lists;
    @Option(names = "--none", description = "Send to no list: only to the recipients imported into the campaign.") boolean none;

    @Override
    int act(Services s) throws Exception {
        if (none && lists != null) {
            throw new UsageException("give --list or --none, not both");
        }
        List<String> names = none || lists != null
                ? s.campaigns().targets().setLists(id, none ? List.of() : lists)
                : s.campaigns().targets().lists(id);
        names.forEach(out()::println);
        return Cli.OK;
    }
}
