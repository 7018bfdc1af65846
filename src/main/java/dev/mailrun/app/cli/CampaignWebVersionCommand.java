package dev.mailrun.app.cli;

import dev.mailrun.app.Services;
import dev.mailrun.campaign.WebVersionSetting;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.WebVersionMode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code mailrun campaign web-version ID [MODE]}: what a campaign's web version pages show (docs/CONTENT.md,
 * "Web version"), and, with MODE, a draft or scheduled campaign's setting changed, as the API's
 * {@code PATCH /campaigns/{id}} with {@code web_version} and the console's campaign page change it.
 */
@Command(name = "web-version", mixinStandardHelpOptions = true,
        description = {"Print what the campaign's web version pages show: personal or anonymous, and whether that is the "
                + "campaign's own setting or webversion.personal.",
                "With MODE, set it for a draft or scheduled campaign."})
final class CampaignWebVersionCommand extends CampaignCommand.CampaignAction {

    @Parameters(index = "0", paramLabel = "ID", description = "Campaign id.") long id;
    @Parameters(index = "1", arity = "0..1", paramLabel = "MODE",
            description = "personal (the recipient's fields, as the message had them) or anonymous (the campaign's only).")
    String mode;

    @Override
    int act(Services s) throws Exception {
        WebVersionSetting pages = s.campaigns().webVersions();
        if (mode != null) {
            try {
                WebVersionMode set = pages.set(id, mode);
                out().println("campaign " + id + ": web version " + set.word());
                return Cli.OK;
            } catch (InvalidFields e) {
                // The one field of this command is its MODE, not an option.
                throw new UsageException("MODE " + e.problems().get(0).reason());
            }
        }
        Campaign campaign = s.campaigns().get(id);
        out().println("campaign " + id + ": web version " + pages.of(campaign).word()
                + (campaign.webVersion().isPresent() ? "" : " (webversion.personal)"));
        return Cli.OK;
    }
}
