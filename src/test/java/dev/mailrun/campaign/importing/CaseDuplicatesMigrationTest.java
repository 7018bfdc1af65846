package dev.mailrun.campaign.importing;

import dev.mailrun.campaign.content.Contents;
import dev.mailrun.campaign.content.PinnedTemplates;
import dev.mailrun.campaign.content.TemplateStore;
import dev.mailrun.campaign.content.UpgradePins;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.testing.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** V5 applies to a database whose campaigns already hold addresses differing only in case, and keeps them. */
class CaseDuplicatesMigrationTest {

    @RegisterExtension
    static final TestDatabase db = TestDatabase.atVersion("4");

    @TempDir
    Path dir;

    @Test
    void existing_case_duplicates_are_kept_and_later_imports_collide_with_the_first_of_them() throws Exception {
        long id = campaignAsOfV4("legacy");
        long other = campaignAsOfV4("other");
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO recipient (campaign_id, email, status, updated_at) VALUES "
                    + "(" + id + ", 'ann@example.com', 'sent', UTC_TIMESTAMP(3)), "
                    + "(" + id + ", 'Ann@example.com', 'pending', UTC_TIMESTAMP(3)), "
                    + "(" + id + ", 'ANN@example.com', 'unknown', UTC_TIMESTAMP(3)), "
                    + "(" + id + ", 'bob@example.com', 'pending', UTC_TIMESTAMP(3)), "
                    + "(" + other + ", 'Ann@example.com', 'pending', UTC_TIMESTAMP(3))");
        }

        assertThat(db.migrateToLatest()).isPositive();

        List<String> rows = new ArrayList<>();
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT campaign_id, email, status, email_key, legacy_duplicate = id, legacy_duplicate = 0 FROM recipient ORDER BY id");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                String mark = rs.getBoolean(6) ? "first" : rs.getBoolean(5) ? "later" : "?";
                rows.add((rs.getLong(1) == id ? "c" : "o") + " " + rs.getString(2) + " " + rs.getString(3) + " "
                        + rs.getString(4) + " " + mark);
            }
        }
        assertThat(rows).containsExactly(
                "c ann@example.com sent ann@example.com first",
                "c Ann@example.com pending ann@example.com later",
                "c ANN@example.com unknown ann@example.com later",
                "c bob@example.com pending bob@example.com first",
                "o Ann@example.com pending ann@example.com first");

        // The upgrade pins the campaigns created before templates were stored (db migrate does).
        Clock clock = Clock.fixed(Instant.parse("2026-11-21T12:00:00Z"), ZoneOffset.UTC);
        new UpgradePins(db.dataSource(), new Contents(db.dataSource(), new TemplateStore(db.dataSource(), clock,
                TemplateStore.DEFAULT_MAX_BYTES), new TemplateLoader(Path.of("templates")), new PinnedTemplates(db.dataSource(), clock)),
                clock).pinAll();
        Path f = dir.resolve("again.csv");
        Files.writeString(f, "email\naNN@example.com\nBOB@example.com\ncarol@example.com\n");
        RecipientImportReport report = new RecipientImporter(db.dataSource(), new PinnedTemplates(db.dataSource(), clock), AddressFilter.none(),
                clock, ImportSettings.defaults())
                .importCsv(id, f, Optional.empty(), n -> {});
        assertThat(report.imported()).isEqualTo(1);
        assertThat(report.rejectedByReason().get(RecipientRejectReason.ALREADY_IN_CAMPAIGN)).isEqualTo(2);
    }

    /** A campaign row as the schema of version 4 holds one: the current CampaignTable writes later columns. */
    private static long campaignAsOfV4(String name) throws Exception {
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement("""
                INSERT INTO campaign (name, template, from_address, status, created_at, updated_at)
                VALUES (?, 'welcome', 'news@sender.example', 'draft', UTC_TIMESTAMP(3), UTC_TIMESTAMP(3))""",
                Statement.RETURN_GENERATED_KEYS)) {
            ps.setString(1, name);
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        }
    }
}
