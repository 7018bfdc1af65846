package dev.mailrun.campaign.content;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.model.ContentPin;
import dev.mailrun.campaign.store.ContentPinTable;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.template.LinkTracking;
import dev.mailrun.mail.template.LoadResult;
import dev.mailrun.mail.template.TemplateSource;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What runs send: a pinned version is read and compiled once per process (and per link tracking), a
 * campaign from before stored templates is pinned at its first run to the latest stored version, and
 * one whose template is not stored gets the problem that says what to do.
 */
class PinnedTemplatesTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final SettableClock clock = new SettableClock(Instant.parse("2026-12-07T09:00:00Z"));
    private final TemplateStore store = new TemplateStore(db.dataSource(), clock, TemplateStore.DEFAULT_MAX_BYTES);

    @Test
    void a_version_is_compiled_once_per_process_and_per_link_tracking() throws Exception {
        store.save(TemplateSource.of("cached", "Hi\n", "Text\n", "<p><a href=\"https://a.example/x\">x</a></p>\n", Optional.empty()),
                "test");
        PinnedTemplates pinned = new PinnedTemplates(db.dataSource(), clock);
        ContentPin pin = new ContentPin("cached", 1);
        LoadResult first = pinned.load(pin);
        assertThat(first).isInstanceOf(LoadResult.Loaded.class);
        assertThat(pinned.load(pin)).isSameAs(first);
        LinkTracking tracking = new LinkTracking(true, true, Set.of());
        LoadResult tracked = pinned.load(pin, Optional.of(tracking));
        assertThat(tracked).isNotSameAs(first);
        assertThat(pinned.load(pin, Optional.of(tracking))).isSameAs(tracked);
        assertThat(pinned.load(new ContentPin("cached", 2))).as("not stored: not cached either")
                .isInstanceOf(LoadResult.Invalid.class);
    }

    @Test
    void a_campaign_never_pinned_is_pinned_at_its_first_run_to_the_latest_stored_version() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "legacy");
        Transactions.inTransaction(db.dataSource(), c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE campaign SET template = 'legacy-pin', template_version = NULL "
                    + "WHERE id = ?")) {
                ps.setLong(1, id);
                ps.executeUpdate();
            }
            return null;
        });
        PinnedTemplates pinned = new PinnedTemplates(db.dataSource(), clock);
        assertThat(pinned.pins(id).campaign()).as("nothing stored under its name").isEmpty();
        assertThat(PinnedTemplates.notStored("legacy-pin")).isInstanceOfSatisfying(LoadResult.Invalid.class,
                i -> assertThat(i.problems().get(0).message()).isEqualTo("template legacy-pin is not stored in the database: "
                        + "import it (template import), then resume the campaign"));

        store.save(TemplateSource.of("legacy-pin", "One\n", "One\n", "<p>One</p>\n", Optional.empty()), "test");
        store.save(TemplateSource.of("legacy-pin", "Two\n", "Two\n", "<p>Two</p>\n", Optional.empty()), "test");
        assertThat(pinned.pins(id).campaign()).contains(new ContentPin("legacy-pin", 2));
        store.save(TemplateSource.of("legacy-pin", "Three\n", "Three\n", "<p>Three</p>\n", Optional.empty()), "test");
        assertThat(pinned.pins(id).campaign()).as("pinned once, not moved by a later save").contains(new ContentPin("legacy-pin", 2));
        List<ContentPinTable.Change> changes = Transactions.readSnapshot(db.dataSource(), c -> new ContentPinTable().changes(c, id));
        assertThat(changes.get(changes.size() - 1)).satisfies(ch -> assertThat(ch.to() + " by " + ch.by()).isEqualTo("2 by first run"));
    }
}
