package dev.mailrun.http.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.campaign.audience.Lists;
import dev.mailrun.campaign.audience.signup.ProofOfWork;
import dev.mailrun.campaign.model.ListOptIn;
import dev.mailrun.campaign.model.ListVisibility;
import dev.mailrun.campaign.unsubscribe.SigningKey;
import dev.mailrun.testing.ProofOfWorkSolver;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The sign-up form with {@code signup.proof-of-work} on, over a real socket and database. */
class SignupProofOfWorkHttpTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();
    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    private static long offers;

    private final SettableClock clock = SettableClock.at("2026-03-02T09:00:00Z");
    private SignupServer server;

    @BeforeAll
    static void lists() throws Exception {
        offers = new Lists(db.dataSource(), SettableClock.at("2026-03-01T00:00:00Z"))
                .create(new Lists.NewList("offers", Optional.empty(), ListVisibility.PUBLIC, ListOptIn.SINGLE)).id();
    }

    @BeforeEach
    void start() throws Exception {
        ProofOfWork proof = new ProofOfWork(SigningKey.of(SignupServer.SECRET).derivedKey("altcha"), 5_000, Duration.ofDays(1), clock);
        server = new SignupServer(db.dataSource(), greenMail.getSmtp().getPort(), clock, Optional.of(proof));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void the_form_carries_a_challenge_and_its_solver_which_the_policy_allows_by_hash_alone() throws Exception {
        HttpResponse<String> page = server.get(server.base + "/subscribe/offers");

        Document html = Jsoup.parse(page.body());
        assertThat(html.getElementById("altcha").attr("data-challenge")).contains("\"algorithm\":\"SHA-256\"");
        assertThat(html.getElementById("altcha-status").text()).isEqualTo("Checking that a person sends this form. This takes a few seconds.");
        assertThat(html.select("noscript").text()).contains("needs JavaScript");
        assertThat(html.select("script")).hasSize(1);
        String script = html.select("script").get(0).data();
        assertThat(script).isEqualTo(SignupPages.PROOF_SCRIPT);
        String csp = page.headers().firstValue("Content-Security-Policy").orElseThrow();
        assertThat(csp).startsWith("default-src 'none'; script-src '" + sha256(script) + "'; style-src")
                .doesNotContain("unsafe");
    }

    @Test
    void a_sign_up_without_a_solution_gets_the_form_again_and_nothing_is_stored() throws Exception {
        HttpResponse<String> refused = server.signUp("/subscribe/offers", "ann@example.com", "Ann", offers);

        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.body()).contains("The check that a person sends this form was not finished").contains("ann@example.com")
                .contains("data-challenge");
        assertThat(server.status("ann@example.com", offers)).isEqualTo("none");
    }

    @Test
    void a_solved_form_signs_up_once_and_its_solution_cannot_be_used_again() throws Exception {
        String solution = ProofOfWorkSolver.solve(challenge(server.get(server.base + "/subscribe/offers").body()));

        HttpResponse<String> done = server.signUp("/subscribe/offers", "bob@example.com", "", offers, "altcha", solution);
        assertThat(done.statusCode()).isEqualTo(200);
        assertThat(server.status("bob@example.com", offers)).isEqualTo("confirmed");

        HttpResponse<String> replay = server.signUp("/subscribe/offers", "cy@example.com", "", offers, "altcha", solution);
        assertThat(replay.statusCode()).isEqualTo(400);
        assertThat(server.status("cy@example.com", offers)).isEqualTo("none");
    }

    @Test
    void another_site_fetches_a_challenge_as_json() throws Exception {
        HttpResponse<String> json = server.get(server.base + "/altcha/challenge");

        assertThat(json.statusCode()).isEqualTo(200);
        assertThat(json.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(json.headers().firstValue("Access-Control-Allow-Origin")).hasValue("*");
        assertThat(json.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(new ObjectMapper().readTree(json.body()).path("maxnumber").asLong()).isEqualTo(5_000);
        assertThat(server.post(server.base + "/altcha/challenge", "").statusCode()).isEqualTo(405);
    }

    private static String challenge(String page) {
        return Jsoup.parse(page).getElementById("altcha").attr("data-challenge");
    }

    private static String sha256(String script) throws Exception {
        return "sha256-" + Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256")
                .digest(script.getBytes(StandardCharsets.UTF_8)));
    }
}
