package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.access.ApiAudit;
import dev.mailrun.campaign.access.ApiTokens;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code mailrun api-token create|list|revoke} and {@code mailrun audit list}, through the real CLI and database. */
class ApiTokenCommandTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final SettableClock clock = SettableClock.at("2026-11-21T10:00:00Z");

    @BeforeEach
    void noTokens() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM api_token");
            s.execute("DELETE FROM api_audit");
        }
    }

    private CliHarness.Result run(String... args) {
        Map<String, String> env = new HashMap<>();
        env.put("MAILRUN_DB_URL", db.url());
        env.put("MAILRUN_DB_USER", db.user());
        env.put("MAILRUN_DB_PASSWORD", db.password());
        return new CliHarness(env, clock).run(args);
    }

    @Test
    void a_created_token_is_printed_once_stored_only_as_its_hash_and_authenticates_until_revoked() throws Exception {
        CliHarness.Result created = run("api-token", "create", "--name", "crm", "--scope", "campaigns:write,recipients:write");
        assertThat(created.exitCode()).as(created.err()).isZero();
        String token = created.out().strip();
        assertThat(token).startsWith("mrt_").hasSizeGreaterThanOrEqualTo(4 + 43);

        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT * FROM api_token")) {
            assertThat(rs.next()).isTrue();
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                Object v = rs.getObject(i);
                assertThat(v == null ? "" : v instanceof byte[] b ? new String(b, java.nio.charset.StandardCharsets.ISO_8859_1) : v.toString())
                        .as(rs.getMetaData().getColumnName(i)).doesNotContain(token).doesNotContain(token.substring(4));
            }
        }

        ApiTokens tokens = new ApiTokens(db.dataSource(), clock, new SecureRandom());
        assertThat(tokens.authenticate(token)).hasValueSatisfying(caller -> {
            assertThat(caller.name()).isEqualTo("crm");
            assertThat(caller.scopes()).containsExactlyInAnyOrder(ApiScope.CAMPAIGNS_WRITE, ApiScope.RECIPIENTS_WRITE);
        });
        assertThat(tokens.authenticate(token + "x")).isEmpty();

        clock.advance(Duration.ofMinutes(5));
        CliHarness.Result list = run("api-token", "list");
        assertThat(list.out()).contains("crm").contains("campaigns:write,recipients:write").contains("2026-11-21T10:00:00Z")
                .doesNotContain(token.substring(4, 20));

        assertThat(run("api-token", "revoke", "crm").exitCode()).isZero();
        assertThat(tokens.authenticate(token)).isEmpty();
        assertThat(run("api-token", "revoke", "crm").exitCode()).isEqualTo(Cli.USAGE);
        assertThat(run("api-token", "list").out()).contains("2026-11-21T10:05:00Z");
    }

    @Test
    void bad_names_scopes_and_a_name_used_before_are_refused_with_one_line() {
        CliHarness.Result scope = run("api-token", "create", "--name", "crm", "--scope", "campaigns:wirte");
        assertThat(scope.exitCode()).isEqualTo(Cli.USAGE);
        assertThat(scope.err()).contains("unknown scope 'campaigns:wirte'");
        assertThat(run("api-token", "create", "--name", "Bad Name", "--scope", "admin").err()).contains("token name");
        assertThat(run("api-token", "create", "--name", "crm", "--scope", "admin").exitCode()).isZero();
        assertThat(run("api-token", "revoke", "crm").exitCode()).isZero();
        assertThat(run("api-token", "create", "--name", "crm", "--scope", "admin").err()).contains("exists already");
    }

    @Test
    void the_audit_list_shows_the_newest_entries_first() throws Exception {
        ApiAudit audit = new ApiAudit(db.dataSource(), clock);
        audit.record("crm", "campaign.create", "campaign", 201, Optional.of("campaign 7"));
        clock.advance(Duration.ofSeconds(1));
        audit.record("crm", "campaign.start", "campaign 7", 409, Optional.of("campaign 7 is running"));
        CliHarness.Result list = run("audit", "list");
        assertThat(list.exitCode()).isZero();
        String out = list.out();
        assertThat(out.indexOf("campaign.start")).isLessThan(out.indexOf("campaign.create")).isPositive();
        assertThat(out).contains("409").contains("campaign 7 is running");
        assertThat(run("audit", "list", "--limit", "0").exitCode()).isEqualTo(Cli.USAGE);
        assertThat(Set.of(run("audit", "list", "--since", "2026-11-21T10:00:01Z").out().split("\n")).size()).isEqualTo(2);
    }
}
