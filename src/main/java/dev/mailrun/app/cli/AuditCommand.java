package dev.mailrun.app.cli;

import dev.mailrun.app.Services;
import dev.mailrun.campaign.store.ApiAuditTable;
import java.time.Duration;
import java.time.Instant;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "audit", mixinStandardHelpOptions = true, description = "The audit trail of writes through the HTTP API.",
        subcommands = {AuditCommand.ListEntries.class})
final class AuditCommand extends GroupCommand {

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Newest first: time, token, action, target, HTTP status, detail.")
    static final class ListEntries extends ContextCommand {
        @Option(names = "--limit", paramLabel = "N", description = "At most this many entries, 1-10000 (default: 100).")
        int limit = 100;
        @Option(names = "--since", paramLabel = "ISO-8601", description = "Only entries from this instant on (default: the last 30 days).")
        String since;

        @Override
        int run(Services s) throws Exception {
            ListLimit.checked(limit);
            Instant from;
            try {
                from = since == null ? s.clock().instant().minus(Duration.ofDays(30)) : Instant.parse(since);
            } catch (java.time.format.DateTimeParseException e) {
                throw new UsageException("--since must be an ISO-8601 instant such as 2026-12-01T09:00:00Z, got '" + since + "'");
            }
            out().printf("%-24s %-16s %-22s %-24s %-6s %s%n", "AT", "TOKEN", "ACTION", "TARGET", "STATUS", "DETAIL");
            for (ApiAuditTable.Entry e : s.apiAudit().newest(from, limit)) {
                out().printf("%-24s %-16s %-22s %-24s %-6d %s%n", e.at(), e.tokenName(), e.action(), e.target(), e.status(),
                        e.detail().orElse(""));
            }
            return Cli.OK;
        }
    }
}
