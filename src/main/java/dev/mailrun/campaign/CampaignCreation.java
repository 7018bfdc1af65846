package dev.mailrun.campaign;

import dev.mailrun.campaign.model.AbTest;
import dev.mailrun.campaign.model.Attachment;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.CampaignTime;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.campaign.model.TrackingMode;
import dev.mailrun.campaign.store.AbTable;
import dev.mailrun.campaign.store.AttachmentTable;
import dev.mailrun.campaign.store.CampaignTable;
import dev.mailrun.campaign.store.TrackedLinkTable;
import dev.mailrun.campaign.variant.VariantChecks;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.template.LoadResult;
import dev.mailrun.mail.template.TemplateLoader;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Creating a campaign: its template, its A/B variants' templates, its start and its expiry (both in
 * the future) checked first,
 * then the campaign, its route, its files, its tracking and its A/B test stored in one transaction.
 * The caller has checked that every relay of the route is configured and that tracking.enabled is on
 * when it asks for tracking; whether replies are counted (replies.imap.host) it is told.
 */
final class CampaignCreation {

    private final DataSource dataSource;
    private final TemplateLoader templates;
    private final Clock clock;
    private final boolean repliesCounted;
    private final CampaignTable store = new CampaignTable();
    private final AttachmentTable files = new AttachmentTable();
    private final TrackedLinkTable trackedLinks = new TrackedLinkTable();
    private final AbTable abTests = new AbTable();

    CampaignCreation(DataSource dataSource, TemplateLoader templates, Clock clock, boolean repliesCounted) {
        this.dataSource = dataSource;
        this.templates = templates;
        this.clock = clock;
        this.repliesCounted = repliesCounted;
    }

    long create(NewCampaign campaign, Optional<RelayRoute> route, List<Attachment> attachments,
                       Optional<TrackingMode> tracking, Optional<AbTest> ab) throws SQLException {
        if (ab.isPresent()) {
            VariantChecks.refuseBroken(templates, ab.get());
            VariantChecks.refuseUnmeasured(ab.get(), tracking, repliesCounted);
            if (tracking.isPresent()) {
                VariantChecks.refuseTrackedTemplates(ab.get());
            }
        }
        if (templates.load(campaign.template()) instanceof LoadResult.Invalid invalid) {
            throw new CampaignException("template " + campaign.template() + " cannot be used: " + Campaigns.first(invalid.problems()));
        }
        Instant now = clock.instant();
        campaign.startAt().ifPresent(at -> CampaignTime.requireFuture("startAt", at, now));
        campaign.expireAt().ifPresent(at -> CampaignTime.requireFuture("expireAt", at, now));
        return Transactions.inTransaction(dataSource, c -> {
            refuseOverPacket(c, attachments);
            long id = store.insert(c, campaign, now);
            store.setRoute(c, id, route, now);
            files.insert(c, id, attachments, now);
            if (tracking.isPresent()) {
                trackedLinks.setMode(c, id, tracking.get(), now);
            }
            if (ab.isPresent()) {
                abTests.insert(c, id, ab.get());
            }
            return id;
        });
    }

    /** A file the server would refuse to take in one statement is refused here, naming the server's limit. */
    private void refuseOverPacket(Connection c, List<Attachment> attachments) throws SQLException {
        if (attachments.isEmpty()) {
            return;
        }
        long packet = files.maxAllowedPacket(c);
        for (Attachment a : attachments) {
            // Room for the statement's other values and the protocol's framing.
            if (a.size() > packet - 64 * 1024) {
                throw new CampaignException("--attach " + a.filename() + ": " + a.size()
                        + " bytes, too large for the database server's max_allowed_packet (" + packet + ")");
            }
        }
    }
}
