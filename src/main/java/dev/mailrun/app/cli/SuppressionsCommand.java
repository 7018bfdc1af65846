package dev.mailrun.app.cli;

import dev.mailrun.app.Services;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.SuppressionReason;
import dev.mailrun.campaign.store.SuppressionRemovalTable;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.suppression.SuppressionExporter;
import dev.mailrun.campaign.suppression.SuppressionFileException;
import dev.mailrun.campaign.suppression.SuppressionImportReport;
import dev.mailrun.campaign.suppression.SuppressionList;
import dev.mailrun.campaign.suppression.SuppressionRejectReason;
import dev.mailrun.csv.Shown;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import java.util.StringJoiner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "suppressions", mixinStandardHelpOptions = true,
        description = "The suppression list: addresses no campaign mails. Import, export, list, check, remove; "
                + "erase-tracking erases an address's opens and clicks.",
        subcommands = {SuppressionsCommand.Import.class, SuppressionsCommand.Export.class,
                SuppressionsCommand.ListSuppressions.class, SuppressionsCommand.Check.class, SuppressionsCommand.Remove.class,
                SuppressionsCommand.EraseTracking.class})
final class SuppressionsCommand extends GroupCommand {

    @Command(name = "import", mixinStandardHelpOptions = true,
            description = {"Suppress every address of a CSV file: another system's export, or any list.",
                    "Exports of Amazon SES, Postmark, SendGrid, Mailgun and listmonk are read as they are: the address "
                            + "column is found by its header name (email, email address, recipient, address; case ignored). "
                            + "Importing a file again adds nothing. Every rejected row is reported with its line and reason."})
    static final class Import extends ContextCommand {

        @Parameters(paramLabel = "FILE", description = "CSV file (UTF-8).")
        Path file;

        @Option(names = "--reason", paramLabel = "R", defaultValue = "imported",
                description = "Reason recorded for the new suppressions: unsubscribed, hard_bounce, complaint, manual, imported (default).")
        String reason;

        @Option(names = "--rejects", paramLabel = "FILE", description = "Also write every rejected row to this CSV file.")
        Path rejects;

        @Override
        int run(Services s) throws Exception {
            SuppressionReason why = reason(reason);
            Progress progress = Progress.on(err(), "import");
            SuppressionImportReport r;
            try {
                r = s.suppressionImporter().importCsv(file, why, Optional.ofNullable(rejects), n -> progress.show(n + " rows read"));
            } catch (SuppressionFileException e) {
                throw new UsageException(e.getMessage());
            } finally {
                progress.done();
            }
            StringJoiner reasons = new StringJoiner(", ", " (", ")").setEmptyValue("");
            for (SuppressionRejectReason rr : SuppressionRejectReason.values()) {
                long n = r.rejectedByReason().getOrDefault(rr, 0L);
                if (n > 0) {
                    reasons.add(rr.label() + " " + n);
                }
            }
            out().println("read " + Counted.of(r.rows(), "row") + " (address column " + Shown.of(r.addressColumn()) + "): suppressed " + r.suppressed()
                    + ", already suppressed " + r.alreadySuppressed() + ", rejected " + r.rejected() + reasons);
            RejectLines.print(out(), r, rejects);
            return Cli.OK;
        }
    }

    @Command(name = "export", mixinStandardHelpOptions = true,
            description = {"Write the suppression list as CSV: email, reason, source, created_at.",
                    "Address order, times in ISO-8601 UTC. The file imports back with 'suppressions import', which sets "
                            + "one --reason per file: export by reason to keep the reasons."})
    static final class Export extends ContextCommand {

        @Parameters(paramLabel = "FILE|-", arity = "0..1", defaultValue = "-",
                description = "Where to write it (replaced once complete); - or nothing: standard output.")
        String target;

        @Option(names = "--reason", paramLabel = "R", description = "Only suppressions with this reason.")
        String reason;

        @Option(names = "--since", paramLabel = "DATE", description = "Only suppressions created at or after this date "
                + "(2026-11-01, midnight UTC) or instant (2026-11-01T10:00:00Z).")
        String since;

        @Override
        int run(Services s) throws Exception {
            SuppressionTable.Filter filter = filter(reason, since);
            long n = CsvOutput.write(target, out(), w -> new SuppressionExporter(s.dataSource()).export(filter, w));
            if (!CsvOutput.isStdout(target)) {
                out().println("exported " + n + " suppression(s) to " + target);
            }
            return Cli.OK;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "The newest suppressions, as a table.")
    static final class ListSuppressions extends ContextCommand {

        @Option(names = "--reason", paramLabel = "R", description = "Only suppressions with this reason.")
        String reason;

        @Option(names = "--since", paramLabel = "DATE", description = "Only suppressions created at or after this date or instant.")
        String since;

        @Mixin
        ListLimit limit;

        @Override
        int run(Services s) throws Exception {
            SuppressionList.Listing listing = s.suppressions().newest(filter(reason, since), limit.value());
            if (listing.total() == 0) {
                out().println("no suppressions" + (reason == null && since == null ? "" : " match"));
                return Cli.OK;
            }
            out().printf("%-40s %-13s %-25s %s%n", "ADDRESS", "REASON", "CREATED", "SOURCE");
            for (SuppressionTable.Stored row : listing.rows()) {
                out().printf("%-40s %-13s %-25s %s%n", row.address(), row.reason(), row.createdAt(), row.source());
            }
            if (listing.total() > listing.rows().size()) {
                out().println("showing the newest " + listing.rows().size() + " of " + listing.total()
                        + " (--limit N for more, suppressions export for all)");
            }
            return Cli.OK;
        }
    }

    @Command(name = "check", mixinStandardHelpOptions = true,
            description = "Whether an address is suppressed, with reason, source and time. Exit 0 either way.")
    static final class Check extends ContextCommand {

        @Parameters(paramLabel = "ADDRESS", description = "Email address.")
        String address;

        @Override
        int run(Services s) throws Exception {
            SuppressionList.Status status = s.suppressions().check(address(address));
            if (status.suppression().isPresent()) {
                SuppressionTable.Stored row = status.suppression().get();
                out().println(status.key() + " is suppressed: " + row.reason() + " since " + row.createdAt()
                        + ", source " + row.source());
            } else {
                out().println(status.key() + " is not suppressed" + status.lastRemoval().map(Check::removed).orElse(""));
            }
            return Cli.OK;
        }

        private static String removed(SuppressionRemovalTable.Removal r) {
            return " (removed " + r.removedAt() + " by " + r.removedBy() + ": " + r.why() + ")";
        }
    }

    @Command(name = "remove", mixinStandardHelpOptions = true,
            description = {"Take an address off the suppression list, recording why.",
                    "Campaigns may mail it again. The removal is recorded with --why, the OS user and the suppression it undid."})
    static final class Remove extends ContextCommand {

        @Parameters(paramLabel = "ADDRESS", description = "Email address.")
        String address;

        @Option(names = "--why", required = true, paramLabel = "TEXT",
                description = "Why the address may be mailed again (recorded; required).")
        String why;

        @Override
        int run(Services s) throws Exception {
            EmailAddress a = address(address);
            Optional<SuppressionTable.Stored> removed;
            try {
                removed = s.suppressions().remove(a, why, System.getProperty("user.name", "unknown"));
            } catch (InvalidFields e) {
                throw e;   // named by its option (Cli)
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
            SuppressionTable.Stored row = removed.orElseThrow(() ->
                    new UsageException(a.suppressionKey() + " is not on the suppression list"));
            out().println("removed " + row.address() + " from the suppression list (was " + row.reason() + " since "
                    + row.createdAt() + ", source " + row.source() + ")");
            return Cli.OK;
        }
    }

    @Command(name = "erase-tracking", mixinStandardHelpOptions = true,
            description = {"Erase an address's opens and clicks in every tracked campaign (docs/TRACKING.md).",
                    "Its tracking links then answer 404 and record nothing."})
    static final class EraseTracking extends ContextCommand {

        @Parameters(paramLabel = "ADDRESS", description = "Email address.")
        String address;

        @Override
        int run(Services s) throws Exception {
            EmailAddress a = address(address);
            int erased = s.trackingErasure().erase(a.value());
            out().println("erased " + erased + " open(s) and click(s) of " + a.suppressionKey());
            return Cli.OK;
        }
    }

    private static EmailAddress address(String raw) {
        if (EmailAddress.check(raw) instanceof EmailAddress.Invalid invalid) {
            throw new UsageException("'" + raw + "' is not a valid address: " + invalid.reason());
        }
        return EmailAddress.of(raw);
    }

    static SuppressionReason reason(String value) {
        return SuppressionReason.fromDb(value.strip().toLowerCase(Locale.ROOT)).orElseThrow(() -> new UsageException(
                "--reason must be one of " + SuppressionReason.allDbValues() + ", got '" + value + "'"));
    }

    static SuppressionTable.Filter filter(String reason, String since) {
        return new SuppressionTable.Filter(Optional.ofNullable(reason).map(SuppressionsCommand::reason),
                Optional.ofNullable(since).map(SuppressionsCommand::since));
    }

    static Instant since(String value) {
        Instant at;
        try {
            at = value.contains("T") ? Instant.parse(value) : LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toInstant();
        } catch (DateTimeParseException e) {
            throw new UsageException("--since must be a date (2026-11-01, midnight UTC) or an ISO-8601 instant "
                    + "(2026-11-01T10:00:00Z), got '" + value + "'");
        }
        // Compared with DATETIME(3) columns, which end with the year 9999.
        if (at.isBefore(CampaignCommand.EARLIEST_START) || !at.isBefore(CampaignCommand.LATEST_START)) {
            throw new UsageException("--since must be from " + CampaignCommand.EARLIEST_START + " and before "
                    + CampaignCommand.LATEST_START + ", got '" + value + "'");
        }
        return at;
    }
}
