package dev.mailrun.campaign.variant;

import dev.mailrun.campaign.content.PinnedTemplates;
import dev.mailrun.campaign.importing.AddressFilter;
import dev.mailrun.campaign.importing.ImportSettings;
import dev.mailrun.campaign.importing.RecipientImporter;
import dev.mailrun.campaign.model.AbState;
import dev.mailrun.campaign.model.AbTest;
import dev.mailrun.campaign.model.PickBy;
import dev.mailrun.campaign.model.TrackingClass;
import dev.mailrun.campaign.model.TrackingEvent;
import dev.mailrun.campaign.model.Variant;
import dev.mailrun.campaign.store.AbTable;
import dev.mailrun.campaign.store.TrackingEventTable;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gate against the real tables: once a winner is picked, every recipient without a variant is
 * given it before a run sends the rest — when the pick was made on a clock finer than the database
 * keeps, and when the run that picked it stopped part-way — and nobody is given a variant twice; a
 * recipient imported after the pick goes in with it.
 */
class AbGateTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final List<Variant> AB = List.of(Variant.parse("A"), Variant.parse("B:subject=Other"));

    @Test
    void a_pick_by_clicks_on_a_clock_with_microseconds_gives_every_recipient_of_the_rest_the_winner() throws Exception {
        long id = campaign("Micro", new AbTest(AB, 20, Optional.of(Duration.ofHours(1)), PickBy.CLICKS), 100);
        AbGate gate = new AbGate(db.dataSource());
        Instant now = Instant.parse("2026-11-27T10:00:00.000123456Z");
        assertThat(gate.phase(id, now)).isInstanceOf(AbGate.Phase.TestShare.class);
        sendTestShare(id);
        assertThat(gate.phase(id, now.plusSeconds(1))).isInstanceOf(AbGate.Phase.Waiting.class);
        humanClick(id, firstOfTestShare(id, 1), now.plusSeconds(2));

        Instant due = state(id).decisionDue().orElseThrow();
        AbGate.Phase decided = gate.phase(id, due.plusNanos(789_321));

        assertThat(decided).isInstanceOf(AbGate.Phase.Decided.class);
        assertThat(stored(id)).isEqualTo(Map.of("0 test share", 10L, "1 test share", 10L, "1 rest", 80L));
        assertThat(state(id).restGivenAt()).isPresent();
    }

    @Test
    void a_pick_whose_run_stopped_before_the_rest_had_it_is_given_by_the_next_run_once_even_to_those_already_sent()
            throws Exception {
        long id = campaign("Crashed", new AbTest(AB, 20, Optional.empty(), PickBy.MANUAL), 100);
        AbGate gate = new AbGate(db.dataSource());
        Instant now = Instant.parse("2026-11-28T10:00:00.000500Z");
        gate.phase(id, now);
        sendTestShare(id);
        gate.phase(id, now.plusSeconds(1));
        // The pick is recorded and its run stops before giving the rest the winner; the sender sends a recipient
        // without a variant the winner, so 30 of the rest go out without one stored.
        Transactions.inTransaction(db.dataSource(), c -> new AbTable().decide(c, id, 1, "picked in a test", now.plusSeconds(2)));
        execute("UPDATE recipient SET status = 'sent', sent_at = UTC_TIMESTAMP(3) WHERE campaign_id = ? AND variant IS NULL"
                + " ORDER BY id LIMIT 30", id);
        assertThat(stored(id)).containsEntry("null rest", 80L);

        assertThat(gate.phase(id, now.plusSeconds(3))).isInstanceOf(AbGate.Phase.Decided.class);
        Map<String, Long> afterTheRun = stored(id);
        assertThat(afterTheRun).isEqualTo(Map.of("0 test share", 10L, "1 test share", 10L, "1 rest", 80L));

        // Given once: a second run, or the pick's own giving run late, finds nobody without a variant.
        assertThat(AbPicks.giveRest(db.dataSource(), id, 0, now.plusSeconds(4))).isZero();
        gate.phase(id, now.plusSeconds(5));
        assertThat(stored(id)).isEqualTo(afterTheRun);
    }

    @Test
    void recipients_imported_after_the_pick_go_in_with_the_winner_stored(@TempDir Path dir) throws Exception {
        long id = campaign("Late list", new AbTest(AB, 20, Optional.empty(), PickBy.MANUAL), 40);
        AbGate gate = new AbGate(db.dataSource());
        Instant now = Instant.parse("2026-11-29T10:00:00.000250Z");
        gate.phase(id, now);
        sendTestShare(id);
        gate.phase(id, now.plusSeconds(1));
        Clock clock = Clock.fixed(now.plusSeconds(2), ZoneOffset.UTC);
        assertThat(new AbPicks(db.dataSource(), clock).pick(id, "B", "picked in a test").givenTheWinner()).isEqualTo(32);

        Path late = Files.writeString(dir.resolve("late.csv"), "email\nlate1@list.example\nlate2@list.example\n");
        new RecipientImporter(db.dataSource(), new PinnedTemplates(db.dataSource(), Clock.systemUTC()), AddressFilter.none(), clock,
                ImportSettings.defaults()).importCsv(id, late, Optional.empty(), n -> {});

        assertThat(stored(id)).isEqualTo(Map.of("0 test share", 4L, "1 test share", 4L, "1 rest", 34L));
    }

    private static long campaign(String name, AbTest test, int recipients) throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), name);
        Transactions.inTransaction(db.dataSource(), c -> {
            new AbTable().insert(c, id, test);
            return null;
        });
        CampaignFixtures.recipients(db.dataSource(), id, recipients);
        return id;
    }

    private static AbState state(long id) throws Exception {
        try (Connection c = db.dataSource().getConnection()) {
            return new AbTable().find(c, id, false).orElseThrow();
        }
    }

    /** Every recipient of the test share sent, as the runs would. */
    private static void sendTestShare(long id) throws Exception {
        execute("UPDATE recipient SET status = 'sent', attempts = 1, sent_at = UTC_TIMESTAMP(3) WHERE campaign_id = ?"
                + " AND variant IS NOT NULL", id);
    }

    private static long firstOfTestShare(long id, int variant) throws Exception {
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT MIN(id) FROM recipient WHERE campaign_id = ? AND variant = ? AND ab_test_share = 1")) {
            ps.setLong(1, id);
            ps.setInt(2, variant);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static void humanClick(long id, long recipient, Instant at) throws Exception {
        try (Connection c = db.dataSource().getConnection()) {
            new TrackingEventTable().insert(c, List.of(new TrackingEvent(id, Optional.of(recipient), true, 0, TrackingClass.HUMAN,
                    Optional.empty(), at)));
        }
    }

    /** Recipients by stored variant ("null" without one) and whether in the test share: "1 rest" → 80. */
    private static Map<String, Long> stored(long id) throws Exception {
        Map<String, Long> out = new TreeMap<>();
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT variant, ab_test_share, COUNT(*) FROM recipient WHERE campaign_id = ? GROUP BY variant, ab_test_share")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getObject(1) + (rs.getBoolean(2) ? " test share" : " rest"), rs.getLong(3));
                }
            }
        }
        return out;
    }

    private static void execute(String sql, long id) throws Exception {
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, id);
            ps.executeUpdate();
        }
    }
}
