package dev.mailrun.campaign.content;

import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.ContentPin;
import dev.mailrun.campaign.store.ContentPinTable;
import dev.mailrun.campaign.store.ContentPinTable.VariantPin;
import dev.mailrun.db.Transactions;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The upgrade to stored content: every campaign created before templates were stored that may still
 * send is pinned to the text its template has in this process's templates.dir now (stored as a new
 * version when it was never stored), and so is each of its A/B variants with a template of its own.
 * A campaign whose template is in neither place stays unpinned and says why; its first run pins it to
 * the latest stored version once one is imported.
 */
public final class UpgradePins {

    /** Who pins at the upgrade, in the record of pins. */
    static final String UPGRADE = "upgrade";

    private final DataSource dataSource;
    private final Contents contents;
    private final Clock clock;
    private final ContentPinTable pins = new ContentPinTable();

    public UpgradePins(DataSource dataSource, Contents contents, Clock clock) {
        this.dataSource = dataSource;
        this.contents = contents;
        this.clock = clock;
    }

    /** What the upgrade did: each campaign pinned, and each left unpinned with the reason. */
    public record Report(List<String> pinned, List<String> left) {
        public Report {
            pinned = List.copyOf(pinned);
            left = List.copyOf(left);
        }
    }

    public Report pinAll() throws SQLException {
        List<String> pinned = new ArrayList<>();
        List<String> left = new ArrayList<>();
        Map<Long, String> unpinned = Transactions.readSnapshot(dataSource, pins::unpinned);
        for (Map.Entry<Long, String> campaign : unpinned.entrySet()) {
            long id = campaign.getKey();
            try {
                ContentPin pin = contents.pin(campaign.getValue(), UPGRADE);
                List<String> variants = new ArrayList<>();
                Transactions.inTransaction(dataSource, c -> {
                    // Under the campaign's lock: a run pinning it at the same time is either seen or waits.
                    if (pins.campaign(c, id, true).flatMap(ContentPinTable.CampaignPin::version).isEmpty()) {
                        pins.pinCampaign(c, id, Optional.empty(), pin, UPGRADE, clock.instant());
                    }
                    return null;
                });
                for (VariantPin v : Transactions.readSnapshot(dataSource, c -> pins.variants(c, id))) {
                    if (v.version().isEmpty()) {
                        ContentPin variantPin = contents.pin(v.template(), UPGRADE);
                        Transactions.inTransaction(dataSource, c -> {
                            pins.pinVariant(c, id, v.variant(), Optional.empty(), variantPin, UPGRADE, clock.instant());
                            return null;
                        });
                        variants.add(v.variant() + " " + variantPin);
                    }
                }
                pinned.add("campaign " + id + ": " + pin + (variants.isEmpty() ? "" : ", variants " + String.join(", ", variants)));
            } catch (CampaignException e) {
                left.add("campaign " + id + ": " + e.getMessage());
            }
        }
        return new Report(pinned, left);
    }
}
