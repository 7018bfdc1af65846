package dev.mailrun.app.api;

import static dev.mailrun.app.api.ApiHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.events.Receiver;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The events outbox through the API (as {@code mailrun events …}): deliveries made by the worker's
 * real dispatcher to a real receiver, listed a page at a time, the endpoints' state, replay, discard
 * and enable — scoped, audited in both trails, idempotent — every answer checked against the contract.
 */
class EventsApiTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final SettableClock clock = SettableClock.at("2026-11-26T10:00:00Z");
    private Receiver receiver;
    private ApiHarness api;
    private String token;

    @BeforeEach
    void start() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            for (String table : List.of("api_token", "api_audit", "api_idempotency", "suppression", "suppression_removal",
                    "event_delivery", "event_outbox", "event_endpoint", "event_audit", "event_subscription")) {
                s.execute("DELETE FROM " + table);
            }
        }
        receiver = new Receiver();
        Map<String, String> env = WorkerEnv.of(db, 2525);
        env.put("MAILRUN_EVENTS_ENDPOINTS", "crm,ops");
        for (String name : List.of("CRM", "OPS")) {
            env.put("MAILRUN_EVENTS_" + name + "_URL", receiver.url());
            env.put("MAILRUN_EVENTS_" + name + "_SECRET", Receiver.SECRET);
            env.put("MAILRUN_EVENTS_" + name + "_ALLOW_HTTP", "true");
            env.put("MAILRUN_EVENTS_" + name + "_ALLOW_PRIVATE_ADDRESSES", "true");
        }
        env.put("MAILRUN_EVENTS_OPS_TYPES", "campaign.*");
        api = new ApiHarness(env, clock);
        token = api.token("ops-team", ApiScope.EVENTS_READ, ApiScope.EVENTS_WRITE, ApiScope.SUPPRESSIONS_WRITE);
        api.services.dispatcher().pass();   // as the worker's dispatcher starts: its endpoints' types are written from now on
    }

    @AfterEach
    void stop() throws Exception {
        api.close();
        receiver.close();
    }

    /** Three suppressions through the API: three recipient.suppressed events, delivered to crm by the dispatcher. */
    private void threeDelivered() throws Exception {
        for (String a : List.of("a@list.example", "b@list.example", "c@list.example")) {
            assertThat(api.post(token, "/api/v1/suppressions", "{\"address\":\"" + a + "\"}").statusCode()).isEqualTo(201);
        }
        api.services.dispatcher().pass();
        assertThat(receiver.accepted()).hasSize(3);
    }

    @Test
    void deliveries_are_listed_newest_first_a_page_at_a_time_and_filtered() throws Exception {
        threeDelivered();
        List<String> seen = new ArrayList<>();
        String path = "/api/v1/events?endpoint=crm&limit=2";
        int pages = 0;
        while (true) {
            JsonNode page = json(api.get(token, path));
            pages++;
            page.get("deliveries").forEach(d -> {
                assertThat(d.get("status").asText()).isEqualTo("delivered");
                assertThat(d.get("event").get("type").asText()).isEqualTo("recipient.suppressed");
                seen.add(d.get("event").get("id").asText());
            });
            if (page.get("next_cursor").isNull()) {
                break;
            }
            path = "/api/v1/events?endpoint=crm&limit=2&cursor=" + page.get("next_cursor").asText();
        }
        assertThat(pages).isEqualTo(2);
        List<String> newestFirst = new ArrayList<>(receiver.accepted().stream().map(Receiver.Got::id).toList());
        java.util.Collections.reverse(newestFirst);
        assertThat(seen).doesNotHaveDuplicates().containsExactlyElementsOf(newestFirst);

        assertThat(json(api.get(token, "/api/v1/events?status=pending")).get("deliveries")).isEmpty();
        assertThat(json(api.get(token, "/api/v1/events?type=campaign.*")).get("deliveries")).isEmpty();
        assertThat(json(api.get(token, "/api/v1/events?type=recipient.*&status=delivered")).get("deliveries")).hasSize(3);

        HttpResponse<String> bad = api.get(token, "/api/v1/events?status=sent");
        assertThat(bad.statusCode()).isEqualTo(422);
        assertThat(json(bad).get("errors").get(0).get("field").asText()).isEqualTo("status");
        assertThat(api.get(token, "/api/v1/events?cursor=bm90LW91cnM").statusCode()).isEqualTo(422);
        assertThat(api.get(token, "/api/v1/events?type=recipient").statusCode()).isEqualTo(422);
    }

    @Test
    void endpoints_show_their_state_and_backlog() throws Exception {
        threeDelivered();
        assertThat(api.post(token, "/api/v1/events/endpoints/crm/replay",
                "{\"since\":\"2026-11-26T00:00:00Z\",\"why\":\"re-sync\"}").statusCode()).isEqualTo(200);
        JsonNode endpoints = json(api.get(token, "/api/v1/events/endpoints")).get("endpoints");
        assertThat(endpoints).extracting(e -> e.get("name").asText()).containsExactly("crm", "ops");
        assertThat(endpoints.get(0).get("state").asText()).isEqualTo("ok");
        assertThat(endpoints.get(0).get("pending").asLong()).isEqualTo(3);
        assertThat(endpoints.get(0).get("oldest_pending").asText()).startsWith("2026-11-26T10:00");
        assertThat(endpoints.get(1).get("pending").asLong()).isZero();
        assertThat(endpoints.get(1).get("oldest_pending").isNull()).isTrue();
    }

    @Test
    void replay_discard_and_enable_are_the_operators_calls_audited_in_both_trails() throws Exception {
        threeDelivered();
        HttpResponse<String> replay = api.post(token, "/api/v1/events/endpoints/crm/replay",
                "{\"since\":\"2026-11-26T00:00:00Z\",\"why\":\"CRM restored from backup\"}", "Idempotency-Key", "replay-1");
        assertThat(replay.statusCode()).isEqualTo(200);
        assertThat(json(replay).get("replayed").asLong()).isEqualTo(3);
        HttpResponse<String> again = api.post(token, "/api/v1/events/endpoints/crm/replay",
                "{\"since\":\"2026-11-26T00:00:00Z\",\"why\":\"CRM restored from backup\"}", "Idempotency-Key", "replay-1");
        assertThat(again.body()).isEqualTo(replay.body());
        assertThat(rows("SELECT CONCAT(action, ' ', affected, ' ', actor, ' ', why) FROM event_audit"))
                .as("the retried POST replayed the first answer, it did not replay again")
                .containsExactly("replay 3 api:ops-team CRM restored from backup");

        api.services.dispatcher().pass();
        assertThat(receiver.accepted()).hasSize(6);
        assertThat(receiver.applied()).hasSize(3);

        assertThat(api.post(token, "/api/v1/events/endpoints/crm/replay",
                "{\"since\":\"2026-11-26T00:00:00Z\",\"why\":\"again\"}").statusCode()).isEqualTo(200);
        HttpResponse<String> discard = api.post(token, "/api/v1/events/endpoints/crm/discard",
                "{\"status\":\"pending\",\"type\":\"recipient.*\",\"why\":\"not needed twice\"}");
        assertThat(json(discard).get("discarded").asLong()).isEqualTo(3);
        JsonNode discarded = json(api.get(token, "/api/v1/events?status=discarded")).get("deliveries");
        assertThat(discarded).hasSize(3);
        assertThat(discarded.get(0).get("last_reply").asText()).isEqualTo("discarded by api:ops-team: not needed twice");

        HttpResponse<String> notDisabled = api.post(token, "/api/v1/events/endpoints/ops/enable", "{\"why\":\"check\"}");
        assertThat(json(notDisabled).get("enabled").asBoolean()).isFalse();
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("INSERT INTO event_endpoint (name, disabled_at, failing_since) VALUES ('ops', UTC_TIMESTAMP(3), UTC_TIMESTAMP(3))"
                    + " ON DUPLICATE KEY UPDATE disabled_at = UTC_TIMESTAMP(3), failing_since = UTC_TIMESTAMP(3)");
        }
        assertThat(json(api.get(token, "/api/v1/events/endpoints")).get("endpoints").get(1).get("state").asText()).isEqualTo("disabled");
        HttpResponse<String> enabled = api.post(token, "/api/v1/events/endpoints/ops/enable", "{\"why\":\"receiver fixed\"}");
        assertThat(json(enabled).get("enabled").asBoolean()).isTrue();
        assertThat(json(api.get(token, "/api/v1/events/endpoints")).get("endpoints").get(1).get("state").asText()).isEqualTo("ok");

        assertThat(rows("SELECT CONCAT(action, ' ', affected, ' ', actor) FROM event_audit ORDER BY id")).containsExactly(
                "replay 3 api:ops-team", "replay 3 api:ops-team", "discard 3 api:ops-team", "enable 1 api:ops-team");
        assertThat(rows("SELECT CONCAT(token_name, ' ', action, ' ', status) FROM api_audit WHERE action LIKE 'events.%' ORDER BY id"))
                .containsExactly("ops-team events.replay 200", "ops-team events.replay 200", "ops-team events.discard 200",
                        "ops-team events.enable 200", "ops-team events.enable 200");
    }

    @Test
    void bad_requests_name_what_is_wrong_and_change_nothing() throws Exception {
        threeDelivered();
        HttpResponse<String> unknown = api.post(token, "/api/v1/events/endpoints/billing/replay",
                "{\"since\":\"2026-11-26T00:00:00Z\",\"why\":\"x\"}");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(json(unknown).get("detail").asText()).contains("no endpoint named 'billing' in events.endpoints (crm,ops)");
        assertThat(api.post(token, "/api/v1/events/endpoints/crm/replay", "{\"since\":\"yesterday\",\"why\":\"x\"}").statusCode())
                .isEqualTo(422);
        HttpResponse<String> noWhy = api.post(token, "/api/v1/events/endpoints/crm/discard", "{\"status\":\"pending\"}");
        assertThat(noWhy.statusCode()).isEqualTo(422);
        assertThat(json(noWhy).get("errors").get(0).get("field").asText()).isEqualTo("why");
        HttpResponse<String> delivered = api.post(token, "/api/v1/events/endpoints/crm/discard",
                "{\"status\":\"delivered\",\"why\":\"x\"}");
        assertThat(delivered.statusCode()).isEqualTo(422);
        assertThat(json(delivered).get("errors").get(0).get("field").asText()).isEqualTo("status");
        assertThat(api.post(token, "/api/v1/events/endpoints/crm/enable", "{\"why\":\"x\",\"force\":true}").statusCode())
                .isEqualTo(422);
        assertThat(api.post(token, "/api/v1/events/endpoints/CRM!/enable", "{\"why\":\"x\"}").statusCode()).isEqualTo(422);
        assertThat(rows("SELECT action FROM event_audit")).isEmpty();
        assertThat(rows("SELECT status FROM event_delivery")).containsOnly("delivered");
    }

    @Test
    void reading_needs_events_read_and_changing_needs_events_write() throws Exception {
        threeDelivered();
        String reader = api.token("dashboard", ApiScope.EVENTS_READ);
        String other = api.token("campaigns-only", ApiScope.CAMPAIGNS_READ);
        assertThat(api.get(reader, "/api/v1/events").statusCode()).isEqualTo(200);
        assertThat(api.get(reader, "/api/v1/events/endpoints").statusCode()).isEqualTo(200);
        HttpResponse<String> refused = api.post(reader, "/api/v1/events/endpoints/crm/replay",
                "{\"since\":\"2026-11-26T00:00:00Z\",\"why\":\"x\"}");
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(json(refused).get("detail").asText()).contains("events:write");
        assertThat(api.get(other, "/api/v1/events").statusCode()).isEqualTo(403);
        assertThat(api.get(api.token("root", ApiScope.ADMIN), "/api/v1/events").statusCode()).isEqualTo(200);
        assertThat(rows("SELECT action FROM event_audit")).isEmpty();
        assertThat(rows("SELECT CONCAT(token_name, ' ', status) FROM api_audit WHERE action = 'events.replay'"))
                .containsExactly("dashboard 403");
    }

    private static List<String> rows(String sql) throws Exception {
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(sql);
             ResultSet rs = ps.executeQuery()) {
            List<String> out = new ArrayList<>();
            while (rs.next()) {
                out.add(rs.getString(1));
            }
            return out;
        }
    }
}
