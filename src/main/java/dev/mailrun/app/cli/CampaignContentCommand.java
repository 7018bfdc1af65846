package dev.mailrun.app.cli;

import dev.mailrun.app.Services;
import dev.mailrun.campaign.model.ContentPin;
import dev.mailrun.campaign.store.ContentPinTable;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code mailrun campaign content}: the template versions a campaign sends and every pin and move of
 * them; with {@code --template}, the operator's explicit move to another version (docs/CONTENT.md).
 */
@Command(name = "content", mixinStandardHelpOptions = true,
        description = {"Show the stored template version a campaign sends, and every pin and move of it.",
                "With --template: move a draft, scheduled or paused campaign (or one of its variants) to another "
                        + "stored version; a running campaign's content never changes. Recorded with --by."})
final class CampaignContentCommand extends CampaignCommand.CampaignAction {

    @Parameters(paramLabel = "ID", description = "Campaign id.") long id;
    @Option(names = "--template", paramLabel = "NAME",
            description = "Move to this stored template (its latest version, or --version).") String template;
    @Option(names = "--version", paramLabel = "N", description = "The stored version to move to.") Integer version;
    @Option(names = "--variant", paramLabel = "NAME", description = "Move this A/B variant's own template instead.") String variant;
    @Option(names = "--by", paramLabel = "WHO", description = "Who moves it, recorded (default: cli:<os user>).") String by;

    @Override
    int act(Services s) throws Exception {
        if (template == null && (version != null || variant != null || by != null)) {
            throw new UsageException("--version, --variant and --by move content: give --template too");
        }
        if (template != null) {
            ContentPin pin = s.campaigns().moveContent(id, template, Optional.ofNullable(version), Optional.ofNullable(variant),
                    by != null ? by : StoredTemplateCommands.savedBy());
            out().println("campaign " + id + (variant != null ? " variant " + variant : "") + " now sends " + pin);
            return Cli.OK;
        }
        List<ContentPinTable.Change> changes = s.campaigns().contentHistory(id);
        if (changes.isEmpty()) {
            out().println("campaign " + id + " is not pinned yet: its first run or db migrate pins it");
        }
        for (ContentPinTable.Change c : changes) {
            out().println(c.at() + "  " + c.variant().map(v -> "variant " + v + "  ").orElse("") + c.template() + "@" + c.to()
                    + c.from().map(f -> " (was " + f + ")").orElse("") + "  by " + c.by());
        }
        return Cli.OK;
    }
}
