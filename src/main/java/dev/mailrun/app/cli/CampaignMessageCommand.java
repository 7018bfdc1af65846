package dev.mailrun.app.cli;

import dev.mailrun.app.Services;
import dev.mailrun.campaign.model.ContentPin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code mailrun campaign message}: a draft, scheduled or paused campaign's own message written into a
 * layout after its creation, as the API's {@code PUT /campaigns/{id}/message} and the console's message
 * page write it (docs/CONTENT.md, "Writing it after creation"). Read here, checked, stored and pinned by
 * the campaign service.
 */
@Command(name = "message", mixinStandardHelpOptions = true,
        description = {"Write a draft, scheduled or paused campaign's own message into a layout: stored as the next version "
                + "of the template named after the campaign, which it then sends. Recorded with --by."})
final class CampaignMessageCommand extends CampaignCommand.CampaignAction {

    @Parameters(paramLabel = "ID", description = "Campaign id.") long id;
    @Mixin MessageOptions message = new MessageOptions();
    @Option(names = "--subject", paramLabel = "S", description = "The message's subject, one line.") String subject;
    @Option(names = "--by", paramLabel = "WHO", description = "Who writes it, recorded (default: cli:<os user>).") String by;

    @Override
    int act(Services s) throws Exception {
        ContentPin pin = s.campaigns().messages().write(id, message.form(subject, s.config().content().maxTemplateBytes()),
                by != null ? by : StoredTemplateCommands.savedBy());
        out().println("campaign " + id + " now sends its own message, " + pin);
        return Cli.OK;
    }
}
