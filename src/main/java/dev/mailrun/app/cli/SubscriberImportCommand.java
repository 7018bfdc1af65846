package dev.mailrun.app.cli;

import dev.mailrun.app.Services;
import dev.mailrun.campaign.audience.ImportMode;
import dev.mailrun.campaign.audience.SubscriberImportReport;
import dev.mailrun.campaign.audience.SubscriberImportStoppedException;
import dev.mailrun.campaign.importing.ImportFileException;
import dev.mailrun.campaign.importing.RecipientRejectReason;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "import", mixinStandardHelpOptions = true,
        description = {"Import a CSV file of people into a list.",
                "The file is read as 'recipients import' reads one: RFC 4180 in UTF-8 with a header row, an email column, "
                        + "optionally name; every other column becomes an attribute. Modes: add (default: new subscribers and "
                        + "subscriptions, existing subscribers' data left as it is), update (names and attributes of existing "
                        + "subscribers replaced too), unsubscribe (the addresses' subscriptions to the list), blocklist (the addresses "
                        + "blocklisted and unsubscribed from every list). Every rejected row is reported with its line and reason."})
final class SubscriberImportCommand extends ContextCommand {

    @Option(names = "--list", required = true, paramLabel = "NAME", description = "The list to import into.")
    String list;

    @Option(names = "--mode", paramLabel = "MODE", defaultValue = "add",
            description = "add (default), update, unsubscribe or blocklist.")
    String mode;

    @Parameters(paramLabel = "FILE", description = "CSV file (UTF-8).")
    Path file;

    @Option(names = "--rejects", paramLabel = "FILE", description = "Also write every rejected row to this CSV file.")
    Path rejects;

    @Override
    int run(Services s) throws Exception {
        ImportMode m = ImportMode.parse(mode);
        Progress progress = Progress.on(err(), "import");
        SubscriberImportReport r;
        try {
            r = s.audience().importer().importCsv(list, m, file, Optional.ofNullable(rejects), n -> progress.show(n + " rows read"));
        } catch (ImportFileException e) {
            throw new UsageException(e.getMessage());
        } catch (SubscriberImportStoppedException e) {
            // What was committed, on stdout like a finished import's summary; the error line follows on stderr.
            out().println("stopped after reading " + summary(e.report()));
            details(e.report());
            throw e;
        } finally {
            progress.done();
        }
        out().println("read " + summary(r));
        details(r);
        return Cli.OK;
    }

    private static String summary(SubscriberImportReport r) {
        return Counted.of(r.rows(), "row") + " into list " + r.list() + " (" + r.mode().label() + "): imported "
                + r.imported() + ", subscribed " + r.subscribed() + ", updated " + r.updated() + ", unsubscribed " + r.unsubscribed()
                + ", blocklisted " + r.blocklisted() + ", unchanged " + r.unchanged() + ", rejected " + r.rejected();
    }

    private void details(SubscriberImportReport r) {
        for (RecipientRejectReason reason : RecipientRejectReason.values()) {
            long n = r.rejectedByReason().getOrDefault(reason, 0L);
            if (n > 0) {
                out().println("  " + reason.label() + ": " + n);
            }
        }
        RejectLines.print(out(), r, rejects);
    }
}
