package dev.mailrun.campaign;

import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.WebVersionMode;
import dev.mailrun.campaign.store.CampaignTable;
import dev.mailrun.db.Transactions;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import javax.sql.DataSource;

/**
 * What a campaign's web version pages show (docs/CONTENT.md, "Web version"): the campaign's own setting,
 * given at creation ({@link CampaignForm}) or changed here while nothing is sent yet (a draft or scheduled
 * campaign), or — a campaign without one — the installation's default, {@code webversion.personal}.
 */
public final class WebVersionSetting {

    private final DataSource dataSource;
    private final Clock clock;
    private final WebVersionMode byDefault;
    private final CampaignTable campaigns = new CampaignTable();

    WebVersionSetting(DataSource dataSource, Clock clock, WebVersionMode byDefault) {
        this.dataSource = dataSource;
        this.clock = clock;
        this.byDefault = byDefault;
    }

    /** What {@code campaign}'s pages show now. */
    public WebVersionMode of(Campaign campaign) {
        return campaign.webVersionOr(byDefault);
    }

    /** What the pages of a campaign without a setting of its own show (webversion.personal). */
    public WebVersionMode byDefault() {
        return byDefault;
    }

    /**
     * Sets what campaign {@code id}'s pages show, given as its word ({@code personal} or {@code anonymous}).
     *
     * @throws InvalidFields naming {@code webVersion}, for any other word
     * @throws CampaignException when there is no such campaign, or it is neither a draft nor scheduled
     */
    public WebVersionMode set(long id, String word) throws SQLException {
        WebVersionMode mode;
        try {
            mode = WebVersionMode.parse(word);
        } catch (IllegalArgumentException e) {
            throw InvalidFields.of("webVersion", e.getMessage());
        }
        if (!Transactions.inTransaction(dataSource, c -> campaigns.setWebVersion(c, id, mode, clock.instant()))) {
            Campaign campaign;
            try (Connection c = dataSource.getConnection()) {
                campaign = campaigns.find(c, id).orElseThrow(() -> new CampaignException("no campaign with id " + id));
            }
            throw new CampaignException("campaign " + id + " is " + campaign.status().dbValue()
                    + "; its web version changes only while it is a draft or scheduled");
        }
        return mode;
    }
}
