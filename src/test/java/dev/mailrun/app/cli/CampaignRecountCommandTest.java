package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code campaign recount}: counts left wrong by rows changed with SQL of one's own are rebuilt
 * from the rows, and {@code campaign status} shows the rows' truth after it.
 */
class CampaignRecountCommandTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @TempDir
    Path dir;

    private final SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-26T10:00:00Z"), Duration.ofMillis(1));

    private CliHarness cli() {
        Map<String, String> env = new HashMap<>();
        env.put("MAILRUN_DB_URL", db.url());
        env.put("MAILRUN_DB_USER", db.user());
        env.put("MAILRUN_DB_PASSWORD", db.password());
        env.put("MAILRUN_SMTP_HOST", "relay.invalid");
        env.put("MAILRUN_UNSUBSCRIBE_SECRET", "a-test-secret-that-is-long-enough-0123456789");
        env.put("MAILRUN_UNSUBSCRIBE_BASE_URL", "https://unsubscribe.sender.example");
        return new CliHarness(env, clock);
    }

    @Test
    void counts_changed_behind_the_stores_back_are_rebuilt_and_a_second_recount_finds_them_exact() throws Exception {
        String id = cli().run("campaign", "create", "--name", "Recount", "--template", "newsletter",
                "--from", "news@sender.example").out().strip();
        Path csv = dir.resolve("list.csv");
        Files.writeString(csv, "email,name,city\nann@list.example,Ann,Oslo\nbob@list.example,Bob,Oslo\ncy@list.example,Cy,Oslo\n");
        assertThat(cli().run("recipients", "import", "--campaign", id, csv.toString()).exitCode()).isZero();
        assertThat(counts(id).get("pending").asLong()).isEqualTo(3);

        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                "UPDATE recipient SET status = 'sent', relay = 'default' WHERE campaign_id = ? AND email = 'ann@list.example'")) {
            ps.setLong(1, Long.parseLong(id));
            ps.executeUpdate();
        }
        assertThat(counts(id).get("sent").asLong()).as("not seen: written past the store").isZero();

        CliHarness.Result first = cli().run("campaign", "recount", id);
        assertThat(first.exitCode()).as(first.err()).isZero();
        assertThat(first.out()).contains("campaign " + id + ": status counts rebuilt; 2 (status, relay) count(s) differed");
        assertThat(counts(id).get("sent").asLong()).isEqualTo(1);
        assertThat(counts(id).get("pending").asLong()).isEqualTo(2);
        assertThat(cli().run("campaign", "recount", id).out()).contains("campaign " + id + ": status counts were exact");

        CliHarness.Result missing = cli().run("campaign", "recount", "999999");
        assertThat(missing.exitCode()).isNotZero();
        assertThat(missing.err()).contains("no campaign with id 999999");
    }

    private JsonNode counts(String id) throws Exception {
        CliHarness.Result r = cli().run("campaign", "status", id, "--json");
        assertThat(r.exitCode()).as(r.err()).isZero();
        return new ObjectMapper().readTree(r.out()).get("counts");
    }
}
