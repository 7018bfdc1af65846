package dev.mailrun.app.cli;

import dev.mailrun.app.Services;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.TestSend;
import dev.mailrun.mail.smtp.SendResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "send-test", mixinStandardHelpOptions = true,
        description = {"Render one message of a campaign and send it to one address now.",
                "It goes through the first relay of the default route. Its subject starts with \"[test] \" and it carries "
                        + "the header X-Mailrun-Test: 1. The campaign, its recipients and its figures are not changed, and no "
                        + "bounce of it suppresses the address."})
final class SendTestCommand extends ContextCommand {

    @Option(names = "--campaign", required = true, paramLabel = "ID",
            description = "Campaign whose template and sender to use, in any state.") long campaign;
    @Option(names = "--to", required = true, paramLabel = "ADDR", description = "Address to send the test to.") String to;
    @Option(names = "--name", paramLabel = "NAME", description = "Recipient name for the merge.") String name = "";
    @Option(names = "--field", paramLabel = "KEY=VALUE", description = "A merge field; repeatable.")
    List<String> fields = List.of();

    @Override
    int run(Services s) throws Exception {
        if (EmailAddress.check(to) instanceof EmailAddress.Invalid invalid) {
            throw new UsageException("--to " + to + ": " + invalid.reason());
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (String f : fields) {
            int eq = f.indexOf('=');
            if (eq <= 0) {
                throw new UsageException("--field must be KEY=VALUE, got '" + f + "'");
            }
            values.put(f.substring(0, eq), f.substring(eq + 1));
        }
        SendResult result;
        try {
            result = new TestSend(s.sendHandler().dependencies(), s.clock()).send(s.campaigns().get(campaign), to, name, values);
        } catch (CampaignException e) {
            throw new UsageException(e.getMessage());
        }
        if (result instanceof SendResult.Sent sent) {
            out().println("sent to " + to + " with Message-ID " + sent.messageId());
            return Cli.OK;
        }
        err().println("mailrun: not sent: " + result);
        return Cli.RUNTIME_FAILURE;
    }
}
