package dev.mailrun.campaign.content;

import dev.mailrun.campaign.model.ContentPin;
import dev.mailrun.campaign.store.ContentPinTable;
import dev.mailrun.campaign.store.ContentPinTable.CampaignPin;
import dev.mailrun.campaign.store.ContentPinTable.VariantPin;
import dev.mailrun.campaign.store.TemplateTable;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.template.LinkTracking;
import dev.mailrun.mail.template.LoadResult;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.mail.template.TemplateProblem;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The templates campaigns send, from their pinned stored versions: what a run renders, on every
 * worker the same text whatever its disk holds. A version never changes once stored, so each is
 * read and compiled once per process (and per link tracking a run asks for) and kept; a run costs
 * one read of its pins, never a read per recipient.
 */
public final class PinnedTemplates {

    /** Who pins a campaign created before templates were stored, at its first run. */
    static final String PINNED_AT_RUN = "first run";
    /** Compiled versions kept per process: more than any worker sends at once, each a few hundred kB at most. */
    private static final int CACHED = 256;

    private final DataSource dataSource;
    private final Clock clock;
    private final TemplateTable templates = new TemplateTable();
    private final ContentPinTable pins = new ContentPinTable();
    private final Map<Key, LoadResult> compiled = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, LoadResult> eldest) {
            return size() > CACHED;
        }
    };

    private record Key(ContentPin pin, Optional<LinkTracking> tracking) {}

    public PinnedTemplates(DataSource dataSource, Clock clock) {
        this.dataSource = dataSource;
        this.clock = clock;
    }

    /** What a campaign sends: its own template's pin and each variant's with a template of its own. */
    public record Pins(Optional<ContentPin> campaign, Map<String, ContentPin> variants) {
        public Pins {
            variants = Map.copyOf(variants);
        }
    }

    /**
     * The campaign's pins. A campaign created before templates were stored is pinned here to its
     * template's latest stored version (under the campaign row's lock: the first run of any worker
     * decides, every later one reads the same pin); empty where nothing of that name is stored.
     */
    public Pins pins(long campaignId) throws SQLException {
        Read read = Transactions.readSnapshot(dataSource, c -> read(c, campaignId));
        if (read.complete()) {
            return read.pins();
        }
        return Transactions.inTransaction(dataSource, c -> {
            pinUnpinned(c, campaignId);
            return read(c, campaignId).pins();
        });
    }

    private record Read(Pins pins, boolean complete) {}

    private Read read(Connection c, long campaignId) throws SQLException {
        Optional<CampaignPin> row = pins.campaign(c, campaignId, false);
        Optional<ContentPin> own = row.flatMap(p -> p.version().map(v -> new ContentPin(p.template(), v)));
        boolean complete = row.isEmpty() || own.isPresent();
        Map<String, ContentPin> variants = new LinkedHashMap<>();
        for (VariantPin v : pins.variants(c, campaignId)) {
            v.version().ifPresent(version -> variants.put(v.variant(), new ContentPin(v.template(), version)));
            complete &= v.version().isPresent();
        }
        return new Read(new Pins(own, variants), complete);
    }

    private void pinUnpinned(Connection c, long campaignId) throws SQLException {
        Optional<CampaignPin> own = pins.campaign(c, campaignId, true);
        if (own.isEmpty()) {
            return;
        }
        if (own.get().version().isEmpty()) {
            Optional<Integer> latest = latest(c, own.get().template());
            if (latest.isPresent()) {
                pins.pinCampaign(c, campaignId, Optional.empty(), new ContentPin(own.get().template(), latest.get()),
                        PINNED_AT_RUN, clock.instant());
            }
        }
        for (VariantPin v : pins.variants(c, campaignId)) {
            if (v.version().isEmpty()) {
                Optional<Integer> latest = latest(c, v.template());
                if (latest.isPresent()) {
                    pins.pinVariant(c, campaignId, v.variant(), Optional.empty(), new ContentPin(v.template(), latest.get()),
                            PINNED_AT_RUN, clock.instant());
                }
            }
        }
    }

    private Optional<Integer> latest(Connection c, String template) throws SQLException {
        return templates.find(c, template).map(TemplateTable.Stored::latestVersion).filter(v -> v > 0);
    }

    /** The pinned version compiled as written. */
    public LoadResult load(ContentPin pin) throws SQLException {
        return load(pin, Optional.empty());
    }

    /** The pinned version compiled, its HTML links rewritten for {@code tracking} when given. */
    public LoadResult load(ContentPin pin, Optional<LinkTracking> tracking) throws SQLException {
        Key key = new Key(pin, tracking);
        synchronized (compiled) {
            LoadResult hit = compiled.get(key);
            if (hit != null) {
                return hit;
            }
        }
        Optional<TemplateTable.Version> version = Transactions.readSnapshot(dataSource,
                c -> templates.version(c, pin.template(), Optional.of(pin.version())));
        if (version.isEmpty()) {
            // Deleting a pinned version is refused; this is a database edited by hand. Not cached.
            return new LoadResult.Invalid(List.of(new TemplateProblem(pin.template(), 0, 0,
                    "version " + pin.version() + " of template " + pin.template() + " is not stored")));
        }
        LoadResult result = TemplateLoader.compile(TemplateStore.source(version.get()), tracking);
        synchronized (compiled) {
            compiled.put(key, result);
        }
        return result;
    }

    /** A never-pinned template's problem: nothing of its name is stored, so no worker can send it. */
    public static LoadResult notStored(String template) {
        return new LoadResult.Invalid(List.of(notStoredProblem(template)));
    }

    /** The one problem of {@link #notStored}. */
    public static TemplateProblem notStoredProblem(String template) {
        return new TemplateProblem(template, 0, 0, "template " + template
                + " is not stored in the database: import it (template import), then resume the campaign");
    }
}
