package dev.mailrun.app.cli;

import dev.mailrun.app.PreferenceWiring;
import dev.mailrun.app.Services;
import dev.mailrun.campaign.audience.Erasure;
import dev.mailrun.campaign.model.CampaignException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code subscribers erase EMAIL}: a person's data erased (docs/ERASURE.md), audited under the OS user's name. */
@Command(name = "erase", mixinStandardHelpOptions = true,
        description = {"Erase a person (docs/ERASURE.md): their subscriber, subscriptions, history, opens and clicks, and their "
                + "address wherever it is kept; past campaigns keep their counts. A one-way hash of the address stays, so no "
                + "later import, sign-up or send reaches it. Cannot be undone."})
final class SubscriberEraseCommand extends ContextCommand {

    @Parameters(paramLabel = "EMAIL", description = "Email address, any letter case.")
    String email;

    @Override
    int run(Services s) throws Exception {
        Erasure.Erased erased;
        try {
            erased = PreferenceWiring.erasure(s).erase(email, Erasure.Via.CLI, System.getProperty("user.name", "unknown"));
        } catch (CampaignException e) {
            throw new UsageException("EMAIL: " + e.getMessage());
        }
        out().println("erased " + (erased.subscriberId().isPresent() ? "subscriber " + erased.subscriberId().get() : "an address that was no subscriber")
                + ": " + Counted.of(erased.recipients(), "recipient row") + " made anonymous, "
                + erased.tracking() + " open(s) and click(s) deleted");
        return Cli.OK;
    }
}
