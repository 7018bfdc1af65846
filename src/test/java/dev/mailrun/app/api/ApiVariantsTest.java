package dev.mailrun.app.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static dev.mailrun.app.api.ApiHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

/** A/B variants through the API: created with a campaign, shown in its report, picked; bad input 422 naming the field. */
class ApiVariantsTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final SettableClock clock = SettableClock.at("2026-11-21T10:00:00Z");
    private ApiHarness api;
    private String token;

    @BeforeEach
    void start() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            for (String table : List.of("api_token", "api_audit", "api_idempotency", "campaign", "task")) {
                s.execute("DELETE FROM " + table);
            }
        }
        api = new ApiHarness(WorkerEnv.of(db, 2525), clock);
        token = api.token("ops", ApiScope.ADMIN);
    }

    @AfterEach
    void stop() {
        api.close();
    }

    private static String body(String ab) {
        return "{\"name\":\"Spring\",\"template\":\"newsletter\",\"from\":\"news@sender.example\"," + ab + "}";
    }

    @Test
    void a_campaign_with_variants_is_created_reported_per_variant_and_its_pick_waits_for_the_test_share() {
        HttpResponse<String> created = api.post(token, "/api/v1/campaigns", body(
                "\"variants\":[\"A:subject=Spring sale\",\"B:subject=20% off everything\"],\"test_share\":20,"
                        + "\"decide_after\":\"4h\",\"pick_by\":\"manual\""));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String id = json(created).get("id").asText();

        JsonNode ab = json(api.get(token, "/api/v1/campaigns/" + id)).get("report").get("ab");
        assertThat(ab.get("test_share_percent").asInt()).isEqualTo(20);
        assertThat(ab.get("decide_after_seconds").asLong()).isEqualTo(4 * 3600);
        assertThat(ab.get("variants")).extracting(v -> v.get("name").asText()).containsExactly("A", "B");

        HttpResponse<String> early = api.post(token, "/api/v1/campaigns/" + id + "/pick", "{\"variant\":\"A\"}");
        assertThat(early.statusCode()).as(early.body()).isEqualTo(409);
        assertThat(json(early).get("detail").asText()).contains("its test share is still being sent");
        HttpResponse<String> unknown = api.post(token, "/api/v1/campaigns/" + id + "/pick", "{\"variant\":\"Z\"}");
        assertThat(unknown.statusCode()).isEqualTo(422);
        assertThat(json(unknown).get("errors").get(0).get("field").asText()).isEqualTo("variant");
    }

    @Test
    void a_recipients_variant_is_in_its_lookup_and_in_both_exports_under_the_csv_column_names() throws Exception {
        String id = json(api.post(token, "/api/v1/campaigns", body(
                "\"variants\":[\"A:subject=Spring sale\",\"B:subject=20% off everything\"],\"test_share\":20"))).get("id").asText();
        HttpResponse<String> added = api.post(token, "/api/v1/campaigns/" + id + "/recipients",
                "{\"recipients\":[{\"email\":\"ann@list.example\"},{\"email\":\"bob@list.example\"},{\"email\":\"cy@list.example\"}]}");
        assertThat(added.statusCode()).as(added.body()).isEqualTo(200);
        // the first run gives the test share its variants; here the positions are set directly, the export is what is tested
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE recipient SET variant = 0 WHERE email = 'ann@list.example'");
            s.executeUpdate("UPDATE recipient SET variant = 1 WHERE email = 'bob@list.example'");
        }

        assertThat(json(api.get(token, "/api/v1/campaigns/" + id + "/recipients/ann@list.example")).get("variant").asText()).isEqualTo("A");
        assertThat(json(api.get(token, "/api/v1/campaigns/" + id + "/recipients/bob@list.example")).get("variant").asText()).isEqualTo("B");
        JsonNode cy = json(api.get(token, "/api/v1/campaigns/" + id + "/recipients/cy@list.example"));
        assertThat(cy.get("variant").isNull()).isTrue();
        assertThat(cy.get("attachments").isNull()).isTrue();

        List<String> lines = List.of(api.get(token, "/api/v1/campaigns/" + id + "/export?format=ndjson").body().split("\n"));
        assertThat(lines).hasSize(3);
        List<String> variants = new java.util.ArrayList<>();
        for (String line : lines) {
            JsonNode row = ApiHarness.JSON.readTree(line);
            variants.add(row.get("email").asText() + "=" + (row.get("variant").isNull() ? "" : row.get("variant").asText()));
        }
        assertThat(variants).containsExactly("ann@list.example=A", "bob@list.example=B", "cy@list.example=");
        String[] csv = api.get(token, "/api/v1/campaigns/" + id + "/export").body().split("\r\n");
        List<String> header = List.of(csv[0].split(","));
        int variant = header.indexOf("variant");
        assertThat(header).endsWith("variant", "content_version");
        assertThat(csv[1].split(",", -1)[variant]).isEqualTo("A");
        assertThat(csv[2].split(",", -1)[variant]).isEqualTo("B");
        assertThat(csv[3].split(",", -1)[variant]).isEmpty();
    }

    @Test
    void each_bad_ab_input_is_refused_with_422_naming_its_field_and_creates_nothing() throws Exception {
        Map<String, String> cases = new LinkedHashMap<>();
        cases.put("\"variants\":[\"A\",\"B:colour=red\"],\"test_share\":20", "variants");
        cases.put("\"variants\":[\"A\",\"B:template=no-such\"],\"test_share\":20", "variants");
        cases.put("\"variants\":[\"A\",\"B:subject=Y\"],\"test_share\":60", "test_share");
        cases.put("\"variants\":[\"A\",\"A:subject=Y\"],\"test_share\":20", "variants");
        cases.put("\"variants\":[\"A\",\"B\",\"C\",\"D\",\"E\",\"F\"],\"test_share\":20", "variants");
        cases.put("\"variants\":[\"A\",\"B:subject=Y\"],\"test_share\":20,\"pick_by\":\"clicks\"", "pick_by");
        cases.put("\"variants\":[\"A\",\"B:subject=Y\"],\"test_share\":20,\"pick_by\":\"replies\"", "pick_by");
        cases.put("\"variants\":[\"A\",\"B:subject=Y\"],\"test_share\":20,\"decide_after\":\"soon\"", "decide_after");
        cases.forEach((ab, field) -> {
            HttpResponse<String> r = api.post(token, "/api/v1/campaigns", body(ab));
            assertThat(r.statusCode()).as(ab + " " + r.body()).isEqualTo(422);
            assertThat(json(r).get("errors")).as(ab).hasSize(1);
            assertThat(json(r).get("errors").get(0).get("field").asText()).as(ab).isEqualTo(field);
        });
        HttpResponse<String> clicks = api.post(token, "/api/v1/campaigns",
                body("\"variants\":[\"A\",\"B:subject=Y\"],\"test_share\":20,\"pick_by\":\"clicks\""));
        assertThat(clicks.statusCode()).isEqualTo(422);
        assertThat(json(clicks).get("errors").get(0).get("field").asText()).isEqualTo("pick_by");
        assertThat(json(clicks).get("errors").get(0).get("reason").asText())
                .isEqualTo("clicks needs the campaign's clicks tracked (track clicks, with tracking.enabled), or pick manually");
        HttpResponse<String> replies = api.post(token, "/api/v1/campaigns",
                body("\"variants\":[\"A\",\"B:subject=Y\"],\"test_share\":20,\"pick_by\":\"replies\""));
        assertThat(json(replies).get("errors").get(0).get("reason").asText())
                .isEqualTo("replies needs the replies mailbox read: set replies.imap.host (docs/MAIL.md, \"Replies\"), "
                        + "or pick manually");
        assertThat(json(api.get(token, "/api/v1/campaigns")).get("campaigns")).isEmpty();
    }
}
