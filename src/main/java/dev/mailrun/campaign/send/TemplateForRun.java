package dev.mailrun.campaign.send;

import dev.mailrun.campaign.content.PinnedTemplates;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.ContentPin;
import dev.mailrun.campaign.model.TrackingMode;
import dev.mailrun.campaign.store.TrackedLinkTable;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.template.LinkTracking;
import dev.mailrun.mail.template.LoadResult;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compiles a run's template from its pinned version: as written, or, for a tracked campaign while tracking.enabled is on,
 * with its links rewritten (once per run) and the links stored, so that the click endpoint
 * redirects each index only to the URL the messages of this run carry.
 */
final class TemplateForRun {

    private static final Logger log = LoggerFactory.getLogger(TemplateForRun.class);

    private TemplateForRun() {
    }

    static LoadResult load(SendDependencies deps, Campaign campaign, Optional<ContentPin> pin, Instant now) throws SQLException {
        if (pin.isEmpty()) {
            return PinnedTemplates.notStored(campaign.template());
        }
        TrackedLinkTable table = new TrackedLinkTable();
        Optional<TrackingMode> mode = deps.tracking().enabled()
                ? Transactions.inTransaction(deps.dataSource(), c -> table.mode(c, campaign.id()))
                : Optional.empty();
        if (mode.isEmpty()) {
            return deps.templates().load(pin.get());
        }
        LoadResult loaded = deps.templates().load(pin.get(), Optional.of(new LinkTracking(mode.get().opens(), mode.get().clicks(), deps.tracking().excludedDomains())));
        if (loaded instanceof LoadResult.Loaded ok) {
            if (mode.get().opens() && !ok.template().openImage()) {
                log.warn("campaign {}: this run's messages carry no open image: the HTML of template '{}' has no image "
                        + "of its own and is shorter than 3200 bytes, where an image alone adds SpamAssassin's "
                        + "HTML_IMAGE_ONLY points (docs/TRACKING.md, \"Deliverability\")", campaign.id(), campaign.template());
            }
            Transactions.inTransaction(deps.dataSource(), c -> {
                table.saveLinks(c, campaign.id(), ok.template().trackedLinks(), now);
                return null;
            });
        }
        return loaded;
    }
}
