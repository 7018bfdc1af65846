package dev.mailrun.app.cli;

import dev.mailrun.app.Services;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code mailrun campaign segments}: the segments a campaign is sent to, and changing them while it is a draft. */
@Command(name = "segments", mixinStandardHelpOptions = true,
        description = {"Print the segments a campaign is sent to, one a line; with --segment or --none, replace them first "
                + "(a draft only). Their members become recipients when it starts (docs/AUDIENCE.md)."})
final class CampaignSegmentsCommand extends CampaignCommand.CampaignAction {

    @Parameters(paramLabel = "ID", description = "Campaign id.") long id;
    @Option(names = "--segment", paramLabel = "NAME", description = "A segment to send to (repeatable): replaces the campaign's segments.")
    List<String> segments;
    @Option(names = "--none", description = "Send to no segment: only to its lists and imported recipients.") boolean none;

    @Override
    int act(Services s) throws Exception {
        if (none && segments != null) {
            throw new UsageException("give --segment or --none, not both");
        }
        List<String> names = none || segments != null
                ? s.campaigns().targets().setSegments(id, none ? List.of() : segments)
                : s.campaigns().targets().segments(id);
        names.forEach(out()::println);
        return Cli.OK;
    }
}
