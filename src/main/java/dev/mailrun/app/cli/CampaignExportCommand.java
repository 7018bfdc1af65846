package dev.mailrun.app.cli;

import dev.mailrun.app.Services;
import dev.mailrun.campaign.model.CampaignException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "export", mixinStandardHelpOptions = true,
        description = {"Write every recipient of a campaign with its outcome as CSV.",
                "Columns id, email, status, attempts, last_code, last_error, sent_at, message_id,",
                "bounce_kind, bounced_at (the latest bounce event); id order, times in ISO-8601 UTC."})
final class CampaignExportCommand extends ContextCommand {

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
