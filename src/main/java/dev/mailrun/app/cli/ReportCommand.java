package dev.mailrun.app.cli;

import dev.mailrun.app.Services;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.report.CampaignReport;
import dev.mailrun.http.status.StatusPage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Write the status page of one campaign as one self-contained HTML file.",
                "It shows progress, counts, rates, the run timeline, messages per minute, outcomes and the hard-bounce rate. "
                        + "It has no script and loads nothing from anywhere, so it opens offline and can be mailed or archived."})
final class ReportCommand extends ContextCommand {

    @Parameters(paramLabel = "ID", description = "Campaign id.")
    long id;

    @Option(names = "--html", required = true, paramLabel = "FILE", description = "Where to write the page (replaced if it exists).")
    Path html;

    @Override
    int run(Services s) throws Exception {
        CampaignReport report;
        try {
            report = s.reports().report(id);
        } catch (CampaignException e) {
            throw new UsageException(e.getMessage());
        }
        Path parent = html.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw new UsageException("--html: directory " + parent + " does not exist");
        }
        try {
            Files.writeString(html, StatusPage.render(List.of(report), Optional.empty()), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UsageException("--html: cannot write " + html + ": " + e.getMessage());
        }
        out().println("wrote the report of campaign " + id + " to " + html);
        return Cli.OK;
    }
}
