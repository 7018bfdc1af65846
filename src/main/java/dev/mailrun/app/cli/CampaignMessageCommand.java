package dev.mailrun.app.cli;

import dev.mailrun.app.Services;
import dev.mailrun.campaign.CampaignMessages.Written;
import dev.mailrun.campaign.content.OwnMessage;
import dev.mailrun.campaign.model.ContentPin;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code mailrun campaign message}: a draft, scheduled or paused campaign's own message written into a
 * layout after its creation, as the API's {@code PUT /campaigns/{id}/message} and the console's message
 * page write it (docs/CONTENT.md, "Writing it after creation"). Read here, checked, stored and pinned by
 * the campaign service. With {@code --show}, the message the campaign sends as it was written.
 */
@Command(name = "message", mixinStandardHelpOptions = true,
        description = {"Write a draft, scheduled or paused campaign's own message into a layout: stored as the next version "
                + "of the template named after the campaign, which it then sends. Recorded with --by.",
                "With --show, print the message the campaign sends as it was written."})
final class CampaignMessageCommand extends CampaignCommand.CampaignAction {

    @Parameters(paramLabel = "ID", description = "Campaign id.") long id;
    @Mixin MessageOptions message = new MessageOptions();
    @Option(names = "--subject", paramLabel = "S", description = "The message's subject, one line.") String subject;
    @Option(names = "--by", paramLabel = "WHO", description = "Who writes it, recorded (default: cli:<os user>).") String by;
    @Option(names = "--show", description = "Print the campaign's own message as it was written: layout, format, subject, "
            + "body and the text part when one was given; nothing is written.") boolean show;

    @Override
    int act(Services s) throws Exception {
        if (show) {
            if (message.given() || subject != null || by != null) {
                throw new UsageException("--show prints the message; give it alone, without the options that write one");
            }
            return show(s.campaigns().messages().written(id));
        }
        ContentPin pin = s.campaigns().messages().write(id, message.form(subject, s.config().content().maxTemplateBytes()),
                by != null ? by : StoredTemplateCommands.savedBy());
        out().println("campaign " + id + " now sends its own message, " + pin);
        return Cli.OK;
    }

    private int show(Written written) {
        if (written instanceof Written.NotKept n) {
            throw new UsageException("campaign " + id + " sends " + n.pin() + ", whose message as written was not kept "
                    + "(stored before messages were kept, or saved as a whole template)");
        }
        if (!(written instanceof Written.Kept kept)) {
            throw new UsageException("campaign " + id + " sends no message of its own");
        }
        PrintWriter out = out();
        OwnMessage m = kept.form().message();
        out.println("campaign " + id + " sends its own message, " + kept.pin() + ": layout " + kept.form().layout() + ", "
                + m.format().word());
        part(out, "subject", m.subject());
        part(out, "body", m.body());
        m.text().ifPresent(text -> part(out, "text", text));
        return Cli.OK;
    }

    private static void part(PrintWriter out, String name, String text) {
        out.println("--- " + name);
        out.print(text.endsWith("\n") ? text : text + "\n");
    }
}
