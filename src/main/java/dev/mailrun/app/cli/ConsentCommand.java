package dev.mailrun.app.cli;

import dev.mailrun.app.Services;
import dev.mailrun.campaign.audience.signup.ConsentRecords;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.store.audience.ConsentTable;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "consent", mixinStandardHelpOptions = true,
        description = "A subscriber's consent per subscription as CSV (docs/SIGNUP.md): list, status, source, consented_at,"
                + " wording, confirmed_at, client_ip.")
final class ConsentCommand extends ContextCommand {

    @Parameters(paramLabel = "EMAIL", description = "Email address (letter case ignored).")
    String email;

    @Override
    int run(Services s) throws Exception {
        Optional<List<ConsentTable.Exported>> rows;
        try {
            rows = new ConsentRecords(s.dataSource()).export(email);
        } catch (InvalidFields e) {
            throw PositionalFields.usage(e, Map.of("email", "EMAIL"));
        }
        List<ConsentTable.Exported> found = rows.orElseThrow(() -> new UsageException("no subscriber " + email.strip()));
        out().println("list,status,source,consented_at,wording,confirmed_at,client_ip");
        for (ConsentTable.Exported r : found) {
            out().println(String.join(",", csv(r.listName()), r.status().dbValue(), r.source().dbValue(), r.consentedAt().toString(),
                    csv(r.wording().orElse("")), r.confirmedAt().map(Instant::toString).orElse(""), r.clientIp().orElse("")));
        }
        return Cli.OK;
    }

    private static String csv(String value) {
        return value.matches(".*[\",\\r\\n].*") ? "\"" + value.replace("\"", "\"\"") + "\"" : value;
    }
}
