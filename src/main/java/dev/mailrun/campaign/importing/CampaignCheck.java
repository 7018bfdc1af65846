package dev.mailrun.campaign.importing;

import dev.mailrun.campaign.content.PinnedTemplates;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.ContentPin;
import dev.mailrun.campaign.store.CampaignTable;
import dev.mailrun.csv.Shown;
import dev.mailrun.mail.template.CompiledTemplate;
import dev.mailrun.mail.template.LoadResult;
import dev.mailrun.mail.template.MergeFields;
import dev.mailrun.mail.template.TemplateProblem;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;

/**
 * Whether a campaign can send what an import would add, decided before anything is imported: a
 * recipient imported into a campaign that will never send again, or without a field its template
 * needs, would stay pending or fail at send time. The same check {@code campaign start} makes on
 * the template's fields is made on every import, whatever the campaign's state.
 */
final class CampaignCheck {

    private final DataSource dataSource;
    private final PinnedTemplates templates;
    private final CampaignTable campaigns = new CampaignTable();

    CampaignCheck(DataSource dataSource, PinnedTemplates templates) {
        this.dataSource = dataSource;
        this.templates = templates;
    }

    /**
     * The campaign's compiled template, once the campaign is found still able to send.
     *
     * @throws ImportRefusedException when it is not
     */
    CompiledTemplate openCampaign(long campaignId) throws SQLException {
        Optional<Campaign> found;
        try (Connection c = dataSource.getConnection()) {
            found = campaigns.find(c, campaignId);
        }
        Campaign campaign = found.orElseThrow(() -> new ImportRefusedException("no campaign with id " + campaignId));
        requireOpen(campaignId, campaign.status());
        Optional<ContentPin> pin = templates.pins(campaignId).campaign();
        if (pin.isEmpty()) {
            throw new ImportRefusedException("campaign " + campaignId + ": "
                    + PinnedTemplates.notStoredProblem(campaign.template()).message());
        }
        LoadResult loaded = templates.load(pin.get());
        if (loaded instanceof LoadResult.Invalid invalid) {
            throw new ImportRefusedException("campaign " + campaignId + ": template " + campaign.template()
                    + " cannot be used: " + invalid.problems().get(0) + " (run: mailrun template check " + campaign.template() + ")");
        }
        return ((LoadResult.Loaded) loaded).template();
    }

    /** @throws ImportRefusedException when a campaign in this state will never send what is imported */
    static void requireOpen(long campaignId, CampaignStatus status) {
        if (status == CampaignStatus.COMPLETED || status == CampaignStatus.CANCELLED) {
            throw new ImportRefusedException("campaign " + campaignId + " is " + status.dbValue()
                    + "; it sends nothing more, so imported recipients would stay pending (create a new campaign)");
        }
    }

    /** @throws ImportRefusedException when the template uses a field, without a default, that the file has no column for */
    static void requireFields(Path file, CompiledTemplate template, CsvHeader header) {
        Set<String> columns = new LinkedHashSet<>();
        header.fieldColumns().forEach(column -> columns.add(column.strip()));
        List<TemplateProblem> problems = template.check(MergeFields.available(columns));
        if (!problems.isEmpty()) {
            throw new ImportFileException(file, new ImportFileException.MissingFields(template.name(), problems.get(0).toString(),
                    problems.size(), columns.stream().map(Shown::of).toList()));
        }
    }
}
