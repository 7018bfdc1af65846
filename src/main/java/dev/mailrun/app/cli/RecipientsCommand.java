package dev.mailrun.app.cli;

import dev.mailrun.app.Services;
import dev.mailrun.campaign.importing.ImportFileException;
import dev.mailrun.campaign.importing.ImportRefusedException;
import dev.mailrun.campaign.importing.ImportStoppedException;
import dev.mailrun.campaign.importing.RecipientImportReport;
import dev.mailrun.campaign.importing.RecipientRejectReason;
import dev.mailrun.campaign.model.CampaignException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "recipients", mixinStandardHelpOptions = true, description = "Recipient lists.",
        subcommands = {RecipientsCommand.Import.class})
final class RecipientsCommand extends GroupCommand {

    @Command(name = "import", mixinStandardHelpOptions = true,
            description = {"Import recipients from a CSV file into a campaign.",
                    "The file is RFC 4180 with a header row: email (required), name (optional); any other column becomes "
                            + "a merge field. Every rejected row is reported with its line and reason."})
    static final class Import extends ContextCommand {

        @Option(names = "--campaign", required = true, paramLabel = "ID", description = "Campaign to import into.")
        long campaign;

        @Parameters(paramLabel = "FILE", description = "CSV file (UTF-8).")
        Path file;

        @Option(names = "--attachment-column", paramLabel = "NAME",
                description = "Column naming each recipient's own file under content.recipient-files (default: attachment, "
                        + "when the file has such a column).") String attachmentColumn;
        @Option(names = "--rejects", paramLabel = "FILE", description = "Also write every rejected row to this CSV file.")
        Path rejects;

        @Override
        int run(Services s) throws Exception {
            try {
                s.campaigns().get(campaign);
            } catch (CampaignException e) {
                throw new UsageException(e.getMessage());
            }
            Progress progress = Progress.on(err(), "import");
            RecipientImportReport r;
            try {
                r = s.importer().importCsv(campaign, file, Optional.ofNullable(rejects), Optional.ofNullable(attachmentColumn), n -> progress.show(n + " rows read"));
            } catch (ImportFileException e) {
                // A missing field: the template check that lists every problem, as a command to run.
                throw new UsageException(e.missing().map(m -> e.file() + ": " + m.reason("run: mailrun template check " + m.template()
                        + (m.columns().isEmpty() ? "" : " --fields " + String.join(",", m.columns())))).orElse(e.getMessage()));
            } catch (ImportRefusedException | CampaignException e) {
                throw new UsageException(e.getMessage());
            } catch (ImportStoppedException e) {
                // What was committed, on stdout like a finished import's summary; the error line follows on stderr.
                out().println("stopped after reading " + Counted.of(e.report().rows(), "row") + ": imported " + e.report().imported()
                        + (e.unconfirmed() > 0 ? " (and perhaps " + e.unconfirmed() + " more)" : "") + ", rejected " + e.report().rejected());
                details(e.report());
                throw e;
            } finally {
                progress.done();
            }
            out().println("read " + Counted.of(r.rows(), "row") + ": imported " + r.imported() + ", rejected " + r.rejected());
            details(r);
            return Cli.OK;
        }

        private void details(RecipientImportReport r) {
            for (Map.Entry<RecipientRejectReason, Long> e : r.rejectedByReason().entrySet()) {
                if (e.getValue() > 0) {
                    out().println("  " + e.getKey().label() + ": " + e.getValue());
                }
            }
            RejectLines.print(out(), r, rejects);
        }
    }
}
