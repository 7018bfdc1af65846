package dev.mailrun.app.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.events.Receiver;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The console's events page over plain HTTP: a worker whose outbox delivers to a real receiver, its
 * endpoint and deliveries listed and filtered, a replay refused without a reason (the message beside
 * its field) and done with one, read-only tokens shown no forms and refused a forged POST; every
 * change in the console's audit trail and the events audit.
 */
class ConsoleEventsHttpTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final SettableClock clock = SettableClock.at("2026-11-26T10:00:00Z");

    @BeforeEach
    void clean() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            for (String table : List.of("api_token", "api_audit", "api_idempotency", "suppression", "suppression_removal",
                    "event_delivery", "event_outbox", "event_endpoint", "event_audit", "event_subscription")) {
                s.execute("DELETE FROM " + table);
            }
        }
    }

    /** A worker whose outbox delivers to the endpoint crm, a real receiver; one suppression delivered to it. */
    private ConsoleClient eventsWorker(Receiver receiver) throws Exception {
        Map<String, String> env = WorkerEnv.of(db, 2525);
        env.put("MAILRUN_EVENTS_ENDPOINTS", "crm");
        env.put("MAILRUN_EVENTS_CRM_URL", receiver.url());
        env.put("MAILRUN_EVENTS_CRM_SECRET", Receiver.SECRET);
        env.put("MAILRUN_EVENTS_CRM_ALLOW_HTTP", "true");
        env.put("MAILRUN_EVENTS_CRM_ALLOW_PRIVATE_ADDRESSES", "true");
        ConsoleClient worker = new ConsoleClient(env, clock);
        worker.services.dispatcher().pass();
        String lists = worker.login(worker.token("lists", ApiScope.SUPPRESSIONS_READ, ApiScope.SUPPRESSIONS_WRITE));
        assertThat(worker.post(lists, "/console/suppressions/add", Map.of("csrf", worker.csrf(lists, "/console/suppressions"),
                "address", "gone@list.example")).statusCode()).isEqualTo(303);
        worker.services.dispatcher().pass();
        assertThat(receiver.accepted()).hasSize(1);
        return worker;
    }

    @Test
    void the_events_page_shows_the_endpoints_and_their_deliveries_filtered() throws Exception {
        try (Receiver receiver = new Receiver(); ConsoleClient worker = eventsWorker(receiver)) {
            String ops = worker.login(worker.token("ops", ApiScope.EVENTS_READ, ApiScope.EVENTS_WRITE));
            HttpResponse<String> page = worker.get(ops, "/console/events");
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("<a href=\"/console/events\">Events</a>", "<tr><td>crm</td><td>ok</td><td>0</td>",
                    "<td>recipient.suppressed</td>", "<td>delivered</td><td>1</td>", "id=\"replay-form\"");
            assertThat(worker.get(ops, "/console/events?status=pending").body()).doesNotContain("<td>recipient.suppressed</td>");
            assertThat(worker.get(ops, "/console/events?endpoint=crm&type=recipient.*&status=delivered").body())
                    .contains("<td>recipient.suppressed</td>");
            assertThat(worker.get(ops, "/console/events?status=sent").body()).contains("id=\"filter-status-error\">status:");
            String reader = worker.login(worker.token("reader", ApiScope.CAMPAIGNS_READ));
            assertThat(worker.get(reader, "/console/campaigns").body()).doesNotContain("/console/events");
            assertThat(worker.get(reader, "/console/events").statusCode()).isEqualTo(403);
        }
    }

    @Test
    void a_replay_needs_a_reason_beside_its_field_and_the_write_scope() throws Exception {
        try (Receiver receiver = new Receiver(); ConsoleClient worker = eventsWorker(receiver)) {
            String ops = worker.login(worker.token("ops", ApiScope.EVENTS_READ, ApiScope.EVENTS_WRITE));
            String csrf = worker.csrf(ops, "/console/events");
            HttpResponse<String> noReason = worker.post(ops, "/console/events/replay",
                    Map.of("csrf", csrf, "endpoint", "crm", "since", "2026-11-26T00:00:00Z", "why", " "));
            assertThat(noReason.statusCode()).isEqualTo(422);
            assertThat(noReason.body()).contains("id=\"replay-why-error\">say why", "value=\"2026-11-26T00:00:00Z\"");
            HttpResponse<String> unknown = worker.post(ops, "/console/events/replay",
                    Map.of("csrf", csrf, "endpoint", "nope", "since", "2026-11-26T00:00:00Z", "why", "lost"));
            assertThat(unknown.body()).contains("id=\"replay-endpoint-error\">no endpoint named &#39;nope&#39;");

            String reader = worker.login(worker.token("viewer", ApiScope.EVENTS_READ));
            HttpResponse<String> readOnly = worker.get(reader, "/console/events");
            assertThat(readOnly.body()).contains("<td>recipient.suppressed</td>")
                    .doesNotContain("id=\"replay-form\"", "id=\"discard-form\"", "id=\"enable-form\"");
            HttpResponse<String> forged = worker.post(reader, "/console/events/replay", Map.of("csrf", worker.csrf(reader,
                    "/console/events"), "endpoint", "crm", "since", "2026-11-26T00:00:00Z", "why", "forged"));
            assertThat(forged.statusCode()).isEqualTo(403);
            assertThat(forged.body()).contains("events:write");
            assertThat(receiver.accepted()).hasSize(1);

            HttpResponse<String> done = worker.post(ops, "/console/events/replay",
                    Map.of("csrf", csrf, "endpoint", "crm", "since", "2026-11-26T00:00:00Z", "why", "the CRM lost a day"));
            assertThat(done.statusCode()).isEqualTo(303);
            assertThat(worker.get(ops, "/console/events").body()).contains("1 delivery(ies) to crm since 2026-11-26T00:00:00Z")
                    .contains("<td>pending</td>");
            worker.services.dispatcher().pass();
            assertThat(receiver.accepted()).hasSize(2);
            assertThat(ConsoleClient.audit(db.dataSource())).containsExactly("lists suppression.add /console/suppressions/add 200",
                    "ops events.replay /console/events/replay 422",
                    "ops events.replay /console/events/replay 422", "viewer events.replay /console/events/replay 403",
                    "ops events.replay /console/events/replay 200");
            assertThat(eventsAudit()).containsExactly("replay crm 1 console:ops the CRM lost a day");
        }
    }

    @Test
    void discard_and_enable_need_a_reason_and_act_on_the_endpoint() throws Exception {
        try (Receiver receiver = new Receiver(); ConsoleClient worker = eventsWorker(receiver)) {
            String ops = worker.login(worker.token("ops", ApiScope.EVENTS_READ, ApiScope.EVENTS_WRITE));
            String csrf = worker.csrf(ops, "/console/events");
            assertThat(worker.post(ops, "/console/events/replay", Map.of("csrf", csrf, "endpoint", "crm",
                    "since", "2026-11-26T00:00:00Z", "why", "again")).statusCode()).isEqualTo(303);
            HttpResponse<String> noReason = worker.post(ops, "/console/events/discard", Map.of("csrf", csrf, "endpoint", "crm"));
            assertThat(noReason.statusCode()).isEqualTo(422);
            assertThat(noReason.body()).contains("id=\"discard-why-error\">say why");
            assertThat(worker.post(ops, "/console/events/discard", Map.of("csrf", csrf, "endpoint", "crm", "status", "sent",
                    "why", "x")).body()).contains("id=\"discard-status-error\">");
            HttpResponse<String> badFilters = worker.post(ops, "/console/events/discard", Map.of("csrf", csrf, "endpoint", "crm",
                    "type", "Recipient", "before", "yesterday", "why", "x"));
            assertThat(badFilters.statusCode()).isEqualTo(422);
            assertThat(badFilters.body()).contains("id=\"discard-type-error\">must be an event type",
                    "id=\"discard-before-error\">must be an RFC 3339 UTC instant", "value=\"yesterday\"");
            // The pending delivery is of a recipient.suppressed event that happened at 10:00: neither of these selects it.
            assertThat(worker.post(ops, "/console/events/discard", Map.of("csrf", csrf, "endpoint", "crm", "type", "campaign.*",
                    "why", "not those")).statusCode()).isEqualTo(303);
            assertThat(worker.post(ops, "/console/events/discard", Map.of("csrf", csrf, "endpoint", "crm",
                    "before", "2026-11-26T10:00:00Z", "why", "older ones")).statusCode()).isEqualTo(303);
            assertThat(worker.get(ops, "/console/events?status=pending").body()).contains("<td>recipient.suppressed</td>");
            HttpResponse<String> discarded = worker.post(ops, "/console/events/discard", Map.of("csrf", csrf, "endpoint", "crm",
                    "status", "pending", "type", "recipient.*", "before", "2026-11-26T10:00:01Z", "why", "the CRM has it already"));
            assertThat(discarded.statusCode()).isEqualTo(303);
            assertThat(worker.get(ops, "/console/events").body()).contains("1 delivery(ies) to crm discarded.", "<td>discarded</td>");
            worker.services.dispatcher().pass();
            assertThat(receiver.accepted()).as("the discarded delivery is not sent again").hasSize(1);

            assertThat(worker.post(ops, "/console/events/enable", Map.of("csrf", csrf, "endpoint", "crm")).body())
                    .contains("id=\"enable-why-error\">say why");
            assertThat(worker.post(ops, "/console/events/enable", Map.of("csrf", csrf, "endpoint", "crm", "why", "fixed"))
                    .statusCode()).isEqualTo(303);
            assertThat(worker.get(ops, "/console/events").body()).contains("crm was not disabled.");
            assertThat(eventsAudit()).containsExactly("replay crm 1 console:ops again", "discard crm 0 console:ops not those",
                    "discard crm 0 console:ops older ones", "discard crm 1 console:ops the CRM has it already");
        }
    }

    @Test
    void the_deliveries_list_pages_back_through_older_links_without_repeating_a_row() throws Exception {
        try (Receiver receiver = new Receiver(); ConsoleClient worker = eventsWorker(receiver)) {
            StringBuilder csv = new StringBuilder("email\n");
            for (int i = 0; i < 55; i++) {
                csv.append("old").append(i).append("@list.example\n");
            }
            HttpResponse<String> imported = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(worker.base() + "/api/v1/suppressions/import")).header("Authorization", "Bearer " + ConsoleClient.ADMIN_TOKEN)
                    .header("Content-Type", "text/csv").POST(HttpRequest.BodyPublishers.ofString(csv.toString())).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(imported.statusCode()).as(imported.body()).isEqualTo(200);
            for (int i = 0; i < 20 && receiver.accepted().size() < 56; i++) {
                worker.services.dispatcher().pass();
            }
            assertThat(receiver.accepted()).hasSize(56);
            String ops = worker.login(worker.token("ops", ApiScope.EVENTS_READ));
            String first = worker.get(ops, "/console/events?endpoint=crm&type=recipient.*").body();
            List<String> firstIds = eventIds(first);
            assertThat(firstIds).hasSize(50).doesNotHaveDuplicates();
            Matcher older = Pattern.compile("<a href=\"([^\"]+)\" id=\"older\">").matcher(first);
            assertThat(older.find()).as("an Older link under a full page").isTrue();
            String href = older.group(1).replace("&amp;", "&");
            assertThat(href).startsWith("/console/events?endpoint=crm&type=recipient.*&older=");
            String second = worker.get(ops, href).body();
            List<String> secondIds = eventIds(second);
            assertThat(secondIds).hasSize(6).doesNotContainAnyElementsOf(firstIds);
            assertThat(second).contains("<a href=\"/console/events?endpoint=crm&amp;type=recipient.*&amp;\" id=\"newest\">")
                    .doesNotContain("id=\"older\"");
            assertThat(worker.get(ops, "/console/events?older=12x").body()).contains("id=\"filter-older-error\">older: not a position");
        }
    }

    private static List<String> eventIds(String page) {
        List<String> ids = new ArrayList<>();
        Matcher m = Pattern.compile("<tr><td>crm</td><td>([^<]+)</td><td>recipient.suppressed</td>").matcher(page);
        while (m.find()) {
            ids.add(m.group(1));
        }
        return ids;
    }

    private List<String> eventsAudit() throws Exception {
        List<String> rows = new ArrayList<>();
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT action, endpoint, affected, actor, why FROM event_audit ORDER BY id")) {
            while (rs.next()) {
                rows.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getLong(3) + " " + rs.getString(4) + " " + rs.getString(5));
            }
        }
        return rows;
    }
}
