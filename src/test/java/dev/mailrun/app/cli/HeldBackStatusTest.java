package dev.mailrun.app.cli;

import dev.mailrun.testing.JsonNames;
import dev.mailrun.testing.StatusCounts;
import static org.assertj.core.api.Assertions.assertThat;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.io.BufferedWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code campaign status} says which pace holds a running campaign back: a capped domain, an adapted rate. */
class HeldBackStatusTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @TempDir
    Path dir;

    private final SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-21T10:00:00Z"), Duration.ofMillis(1));

    private CliHarness cli() {
        Map<String, String> env = new HashMap<>();
        env.put("MAILRUN_DB_URL", db.url());
        env.put("MAILRUN_DB_USER", db.user());
        env.put("MAILRUN_DB_PASSWORD", db.password());
        env.put("MAILRUN_SMTP_HOST", "relay.invalid");
        env.put("MAILRUN_SMTP_PORT", "2525");
        env.put("MAILRUN_SMTP_RATE", "20");
        env.put("MAILRUN_POLICY_DOMAIN_GMAIL_RATE", "300/min");
        env.put("MAILRUN_UNSUBSCRIBE_SECRET", "a-test-secret-that-is-long-enough-0123456789");
        env.put("MAILRUN_UNSUBSCRIBE_BASE_URL", "https://unsubscribe.sender.example");
        return new CliHarness(env, clock);
    }

    @Test
    void status_shows_the_capped_domains_it_still_has_recipients_at_and_the_adapted_relay_rate() throws Exception {
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement("DELETE FROM adapted_rate")) {
            ps.executeUpdate();
        }
        String id = cli().run("campaign", "create", "--name", "Held", "--template", "newsletter",
                "--from", "news@sender.example").out().strip();
        Path csv = dir.resolve("list.csv");
        Files.writeString(csv, "email,name,city\nann@gmail.com,Ann,Oslo\nbob@list.example,Bob,Oslo\ncy@yahoo.com,Cy,Oslo\n");
        assertThat(cli().run("recipients", "import", "--campaign", id, csv.toString()).exitCode()).isZero();
        assertThat(cli().run("campaign", "start", id).exitCode()).isZero();
        assertThat(heldBackBy(id)).containsExactly("domain gmail capped at 5/s");

        // As the sending runs leave them after "too fast" replies from the relay and from Yahoo.
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement("""
                INSERT INTO adapted_rate (name, rate, decreased_at, increased_at, decreases, reason)
                VALUES ('relay:default', 2.5, UTC_TIMESTAMP(3), UTC_TIMESTAMP(3), 3, '450 4.7.1 too much mail'),
                       ('domain:yahoo', 1.25, UTC_TIMESTAMP(3), UTC_TIMESTAMP(3), 1, '421 4.7.0 [TS01]')""")) {
            ps.executeUpdate();
        }
        assertThat(heldBackBy(id)).containsExactly("domain gmail capped at 5/s", "domain yahoo adapted to 1.25/s",
                "relay default rate adapted to 2.5/s");
        assertThat(cli().run("campaign", "status", id).out())
                .contains("held back by: domain gmail capped at 5/s; domain yahoo adapted to 1.25/s; relay default rate adapted to 2.5/s");

        // Nobody left at gmail.com: that cap no longer holds this campaign back.
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                "UPDATE recipient SET status = 'sent' WHERE campaign_id = ? AND email = 'ann@gmail.com'")) {
            ps.setLong(1, Long.parseLong(id));
            ps.executeUpdate();
        }
        StatusCounts.rebuild(db.dataSource(), Long.parseLong(id));
        assertThat(heldBackBy(id)).containsExactly("domain yahoo adapted to 1.25/s", "relay default rate adapted to 2.5/s");
    }

    private List<String> heldBackBy(String id) throws Exception {
        CliHarness.Result r = cli().run("campaign", "status", id, "--json");
        assertThat(r.exitCode()).as(r.err()).isZero();
        List<String> held = new java.util.ArrayList<>();
        JsonNode status = new ObjectMapper().readTree(r.out());
        assertThat(JsonNames.problems(status)).as(r.out()).isEmpty();
        status.path("held_back_by").forEach(n -> held.add(n.asText()));
        return held;
    }
}
