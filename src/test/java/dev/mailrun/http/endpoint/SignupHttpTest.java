package dev.mailrun.http.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.campaign.audience.Lists;
import dev.mailrun.campaign.model.ListOptIn;
import dev.mailrun.campaign.model.ListVisibility;
import dev.mailrun.campaign.store.audience.PublicListTable;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import jakarta.mail.internet.MimeMessage;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The sign-up forms and confirmation links over real sockets, a real database and a real SMTP server. */
class SignupHttpTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();
    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    private static final Pattern CONFIRM_LINK = Pattern.compile("(http://127\\.0\\.0\\.1:\\d+/confirm/[A-Za-z0-9_-]+)");
    private static long news;
    private static long offers;
    private static long staff;

    private final SettableClock clock = SettableClock.at("2026-03-02T09:00:00Z");
    private SignupServer server;
    private String base;

    @BeforeAll
    static void lists() throws Exception {
        Lists lists = new Lists(db.dataSource(), SettableClock.at("2026-03-01T00:00:00Z"));
        news = lists.create(new Lists.NewList("news", Optional.of("Our weekly news"), ListVisibility.PUBLIC, ListOptIn.DOUBLE)).id();
        offers = lists.create(new Lists.NewList("offers", Optional.empty(), ListVisibility.PUBLIC, ListOptIn.SINGLE)).id();
        staff = lists.create(new Lists.NewList("staff", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.SINGLE)).id();
    }

    @BeforeEach
    void start() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM subscriber");
            s.execute("UPDATE subscriber_list SET language = NULL");
        }
        server = new SignupServer(db.dataSource(), greenMail.getSmtp().getPort(), clock, Optional.empty());
        base = server.base;
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void a_double_opt_in_sign_up_is_confirmed_by_the_link_in_the_message_it_receives() throws Exception {
        HttpResponse<String> done = server.signUp("/subscribe/news", "ann@example.com", "Ann", news);

        assertThat(done.statusCode()).isEqualTo(200);
        assertThat(done.body()).contains("Almost done");
        assertThat(server.status("ann@example.com", news)).isEqualTo("unconfirmed");
        String link = confirmLink(single());

        HttpResponse<String> page = server.get(link);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("<form method=\"post\"").contains("ann@example.com").contains("news");
        assertThat(server.status("ann@example.com", news)).as("a GET changes nothing").isEqualTo("unconfirmed");

        HttpResponse<String> confirmed = server.post(link, "");
        assertThat(confirmed.statusCode()).isEqualTo(200);
        assertThat(confirmed.body()).contains("Subscription confirmed").contains("March 2, 2026");
        assertThat(server.status("ann@example.com", news)).isEqualTo("confirmed");
        assertThat(consent("ann@example.com", news)).isEqualTo("form|v2|2026-03-02 09:00:05.000|2026-03-02 09:00:05.000|null");
    }

    @Test
    void a_single_opt_in_sign_up_is_confirmed_at_once_and_sends_no_confirmation() throws Exception {
        HttpResponse<String> done = server.signUp("/subscribe/offers", "bob@example.com", "", offers);

        assertThat(done.statusCode()).isEqualTo(200);
        assertThat(server.status("bob@example.com", offers)).isEqualTo("confirmed");
        assertThat(greenMail.getReceivedMessages()).isEmpty();
    }

    @Test
    void a_used_forged_or_expired_link_shows_a_clear_page_and_changes_nothing() throws Exception {
        server.signUp("/subscribe/news", "cy@example.com", "", news);
        String link = confirmLink(single());

        HttpResponse<String> forged = server.post(link.substring(0, link.length() - 2) + (link.endsWith("AA") ? "BB" : "AA"), "");
        assertThat(forged.statusCode()).isEqualTo(400);
        assertThat(forged.body()).contains("Invalid link");
        assertThat(server.status("cy@example.com", news)).isEqualTo("unconfirmed");

        clock.advance(Duration.ofDays(3));
        HttpResponse<String> expired = server.post(link, "");
        assertThat(expired.statusCode()).isEqualTo(410);
        assertThat(expired.body()).contains("Link expired").contains("sign up again");
        assertThat(server.status("cy@example.com", news)).isEqualTo("unconfirmed");
    }

    @Test
    void a_link_confirms_once_and_a_replay_after_an_unsubscribe_changes_nothing() throws Exception {
        server.signUp("/subscribe/news", "dee@example.com", "", news);
        String link = confirmLink(single());
        assertThat(server.post(link, "").statusCode()).isEqualTo(200);
        execute("UPDATE subscription SET status = 'unsubscribed'");

        HttpResponse<String> replay = server.post(link, "");

        assertThat(replay.statusCode()).isEqualTo(409);
        assertThat(replay.body()).contains("already used");
        assertThat(server.status("dee@example.com", news)).isEqualTo("unsubscribed");
    }

    @Test
    void a_filled_honeypot_or_a_form_sent_too_fast_is_answered_as_usual_and_sends_nothing() throws Exception {
        String token = server.formToken("/subscribe/news");
        clock.advance(Duration.ofSeconds(5));
        HttpResponse<String> trapped = server.post(base + "/subscribe/news",
                SignupServer.form("form_token", token, "email", "bot@example.com", "list", Long.toString(news), "website", "http://spam"));
        HttpResponse<String> fast = server.post(base + "/subscribe/news",
                SignupServer.form("form_token", server.formToken("/subscribe/news"), "email", "bot2@example.com", "list", Long.toString(news)));

        assertThat(trapped.statusCode()).isEqualTo(200);
        assertThat(trapped.body()).contains("Almost done");
        assertThat(fast.statusCode()).isEqualTo(200);
        assertThat(fast.body()).contains("Almost done");
        assertThat(greenMail.getReceivedMessages()).isEmpty();
        assertThat(count("SELECT COUNT(*) FROM subscriber")).isZero();
    }

    @Test
    void a_flood_from_one_client_gets_429_with_retry_after_and_no_mail() throws Exception {
        List<Integer> statuses = new ArrayList<>();
        HttpResponse<String> last = null;
        for (int i = 0; i < 8; i++) {
            last = server.signUp("/subscribe/news", "flood" + i + "@example.com", "", news);
            statuses.add(last.statusCode());
        }

        assertThat(statuses).containsExactly(200, 200, 200, 200, 200, 200, 429, 429);
        assertThat(last.headers().firstValue("Retry-After")).isPresent();
        assertThat(last.body()).contains("Too many requests");
        assertThat(greenMail.getReceivedMessages()).hasSize(6);
        assertThat(count("SELECT COUNT(*) FROM subscriber WHERE email LIKE 'flood6%' OR email LIKE 'flood7%'")).isZero();
    }

    @Test
    void one_address_signed_up_again_and_again_gets_429_after_its_limit() throws Exception {
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            statuses.add(server.signUp("/subscribe/news", "Eve@Example.com", "", news).statusCode());
        }

        assertThat(statuses).containsExactly(200, 200, 200, 429);
        assertThat(greenMail.getReceivedMessages()).as("each sign-up of a pending address sends a new link").hasSize(3);
    }

    @Test
    void a_confirmed_address_signing_up_again_gets_the_same_answer_as_a_new_one_and_no_mail() throws Exception {
        server.signUp("/subscribe/offers", "fay@example.com", "", offers);
        HttpResponse<String> again = server.signUp("/subscribe/offers", "fay@example.com", "", offers);
        HttpResponse<String> fresh = server.signUp("/subscribe/offers", "gus@example.com", "", offers);
        execute("DELETE FROM subscriber WHERE email = 'gus@example.com'");
        HttpResponse<String> first = server.signUp("/subscribe/offers", "gus@example.com", "", offers);

        assertThat(again.statusCode()).isEqualTo(first.statusCode()).isEqualTo(fresh.statusCode()).isEqualTo(200);
        assertThat(again.body().replace("fay@", "x@")).isEqualTo(first.body().replace("gus@", "x@"));
        assertThat(greenMail.getReceivedMessages()).isEmpty();
    }

    @Test
    void a_name_with_a_line_break_is_refused_naming_the_field_and_nothing_is_stored() throws Exception {
        HttpResponse<String> refused = server.signUp("/subscribe/news", "hal@example.com", "Hal\r\nBcc: victim@example.com", news);

        assertThat(refused.statusCode()).isEqualTo(422);
        assertThat(refused.body()).contains("Name: use one line").contains("role=\"alert\"").contains("value=\"hal@example.com\"");
        assertThat(greenMail.getReceivedMessages()).isEmpty();
        assertThat(count("SELECT COUNT(*) FROM subscriber")).isZero();
    }

    @Test
    void an_oversized_form_is_refused_with_413() throws Exception {
        String token = server.formToken("/subscribe/news");
        clock.advance(Duration.ofSeconds(5));

        HttpResponse<String> tooLarge = server.post(base + "/subscribe/news", SignupServer.form("form_token", token, "email", "ivy@example.com",
                "list", Long.toString(news), "name", "x".repeat(9000)));

        assertThat(tooLarge.statusCode()).isEqualTo(413);
        assertThat(count("SELECT COUNT(*) FROM subscriber")).isZero();
    }

    @Test
    void a_post_without_the_forms_token_is_refused_and_sends_nothing() throws Exception {
        HttpResponse<String> refused = server.post(base + "/subscribe/news", SignupServer.form("email", "jo@example.com", "list", Long.toString(news)));

        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.body()).contains("Reload the page");
        assertThat(greenMail.getReceivedMessages()).isEmpty();
    }

    @Test
    void a_private_list_has_no_form_and_cannot_be_posted_to() throws Exception {
        assertThat(server.get(base + "/subscribe/staff").statusCode()).isEqualTo(404);
        assertThat(server.get(base + "/subscribe/" + staff).statusCode()).isEqualTo(404);

        HttpResponse<String> refused = server.signUp("/subscribe", "kim@example.com", "", staff);

        assertThat(refused.statusCode()).isEqualTo(422);
        assertThat(count("SELECT COUNT(*) FROM subscription")).isZero();
    }

    @Test
    void the_form_of_every_public_list_offers_them_as_labelled_checkboxes_under_a_strict_policy() throws Exception {
        HttpResponse<String> page = server.get(base + "/subscribe");

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("<label for=\"email\">").contains("value=\"" + news + "\"")
                .contains("value=\"" + offers + "\"").doesNotContain("staff").doesNotContain("<script");
        assertThat(page.headers().firstValue("Content-Security-Policy").orElseThrow())
                .startsWith("default-src 'none'; style-src 'sha256-").contains("img-src 'none'").contains("form-action 'self'")
                .doesNotContain("unsafe-inline");
    }

    @Test
    void a_german_list_shows_its_form_and_sends_its_confirmation_in_german() throws Exception {
        try (Connection c = db.dataSource().getConnection()) {
            new PublicListTable().setLanguage(c, "news", Optional.of("de"));
        }

        HttpResponse<String> page = server.get(base + "/subscribe/news");
        assertThat(page.body()).contains("<html lang=\"de\"").contains("news abonnieren").contains("E-Mail-Adresse");

        HttpResponse<String> done = server.signUp("/subscribe/news", "lou@example.com", "", news);
        assertThat(done.body()).contains("Fast geschafft");
        MimeMessage message = single();
        assertThat(message.getSubject()).isEqualTo("Bitte bestätigen Sie Ihr Abonnement von news");
        assertThat(GreenMailUtil.getBody(message)).contains("5. M=C3=A4rz 2026");
    }

    private MimeMessage single() {
        assertThat(greenMail.waitForIncomingEmail(5000, 1)).isTrue();
        MimeMessage[] received = greenMail.getReceivedMessages();
        assertThat(received).hasSize(1);
        return received[0];
    }

    private static String confirmLink(MimeMessage message) {
        Matcher m = CONFIRM_LINK.matcher(GreenMailUtil.getBody(message).replace("=\r\n", ""));
        assertThat(m.find()).isTrue();
        return m.group(1);
    }

    private static String consent(String email, long list) throws Exception {
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement("""
                SELECT k.source, k.wording, DATE_FORMAT(k.consented_at, '%Y-%m-%d %H:%i:%s.%f'),
                       DATE_FORMAT(k.confirmed_at, '%Y-%m-%d %H:%i:%s.%f'), k.client_ip
                FROM subscription_consent k JOIN subscriber b ON b.id = k.subscriber_id WHERE b.email = ? AND k.list_id = ?""")) {
            ps.setString(1, email);
            ps.setLong(2, list);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) + "|" + rs.getString(2) + "|" + rs.getString(3).substring(0, 23) + "|"
                        + rs.getString(4).substring(0, 23) + "|" + rs.getString(5) : "none";
            }
        }
    }

    private static long count(String sql) throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void execute(String sql) throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
