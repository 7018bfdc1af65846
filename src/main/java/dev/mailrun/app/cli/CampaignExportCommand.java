package dev.mailrun.app.cli;

import dev.mailrun.app.Services;
import dev.mailrun.campaign.CampaignExport;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import dev.mailrun.campaign.model.CampaignException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "export", mixinStandardHelpOptions = true,
        description = "Write every recipient of a campaign with its outcome as CSV.",
        modelTransformer = CampaignExportCommand.Columns.class)
final class CampaignExportCommand extends ContextCommand {

    /** Adds the columns to the description from the list the export writes, so the help cannot fall behind it. */
    static final class Columns implements CommandLine.IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec spec) {
            List<String> description = new ArrayList<>(List.of(spec.usageMessage().description()));
            description.add("Columns: " + String.join(", ", CampaignExport.COLUMNS) + "; a tracked campaign adds "
                    + String.join(", ", CampaignExport.TRACKING_COLUMNS) + ". Rows in id order, times in ISO-8601 UTC, "
                    + "bounced_at the latest bounce.");
            spec.usageMessage().description(description.toArray(String[]::new));
            return spec;
        }
    }

    @Parameters(index = "0", paramLabel = "ID", description = "Campaign id.")
    long id;

    @Parameters(index = "1", paramLabel = "FILE|-", description = "Where to write it (replaced once complete); -: standard output.")
    String target;

    @Override
    int run(Services s) throws Exception {
        try {
            s.campaigns().get(id);
        } catch (CampaignException e) {
            throw new UsageException(e.getMessage());
        }
        long n = CsvOutput.write(target, out(), w -> s.campaignExport().write(id, w));
        if (!CsvOutput.isStdout(target)) {
            out().println("exported " + n + " recipient(s) of campaign " + id + " to " + target);
        }
        return Cli.OK;
    }
}
