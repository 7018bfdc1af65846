package dev.mailrun.app.api;

import static dev.mailrun.app.api.ApiHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A campaign created through the API with the lists and segments it is sent to; an unknown list or
 * segment is 422 naming the field lists or segments, and nothing is created. Every answer is checked against the contract by the harness.
 */
class ApiListsTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final SettableClock clock = SettableClock.at("2026-11-24T10:00:00Z");
    private ApiHarness api;
    private String token;

    @BeforeEach
    void start() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            for (String table : List.of("api_token", "api_audit", "api_idempotency", "campaign", "task", "subscriber_list", "segment")) {
                s.execute("DELETE FROM " + table);
            }
            s.execute("INSERT INTO subscriber_list (name, visibility, optin, created_at, updated_at)"
                    + " VALUES ('news', 'private', 'single', UTC_TIMESTAMP(3), UTC_TIMESTAMP(3))");
            s.execute("INSERT INTO segment (name, filter, created_at, updated_at)"
                    + " VALUES ('pros', '{\"attr\":\"plan\",\"eq\":\"pro\"}', UTC_TIMESTAMP(3), UTC_TIMESTAMP(3))");
        }
        api = new ApiHarness(WorkerEnv.of(db, 2525), clock);
        token = api.token("ops", ApiScope.ADMIN);
    }

    @AfterEach
    void stop() {
        api.close();
    }

    private static String body(String lists) {
        return "{\"name\":\"To news\",\"template\":\"newsletter\",\"from\":\"news@sender.example\",\"lists\":" + lists + "}";
    }

    @Test
    void a_campaign_is_created_with_its_lists() throws Exception {
        HttpResponse<String> created = api.post(token, "/api/v1/campaigns", body("[\"News\"]"));

        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(targets(json(created).get("id").asLong())).containsExactly("news");
    }

    @Test
    void an_unknown_list_is_422_naming_lists_and_creates_nothing() throws Exception {
        HttpResponse<String> bad = api.post(token, "/api/v1/campaigns", body("[\"news\", \"nope\"]"));

        assertThat(bad.statusCode()).as(bad.body()).isEqualTo(422);
        assertThat(json(bad).get("errors")).hasSize(1);
        assertThat(json(bad).get("errors").get(0).get("field").asText()).isEqualTo("lists");
        assertThat(json(bad).get("errors").get(0).get("reason").asText()).isEqualTo("no list named 'nope'");
        assertThat(rows("SELECT COUNT(*) FROM campaign")).containsExactly("0");
    }

    @Test
    void a_campaign_is_created_with_its_segments_and_an_unknown_one_is_422_naming_segments() throws Exception {
        HttpResponse<String> created = api.post(token, "/api/v1/campaigns", "{\"name\":\"To pros\",\"template\":\"newsletter\","
                + "\"from\":\"news@sender.example\",\"lists\":[\"news\"],\"segments\":[\"Pros\"]}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        long id = json(created).get("id").asLong();
        assertThat(rows("SELECT g.name FROM campaign_segment cs JOIN segment g ON g.id = cs.segment_id WHERE cs.campaign_id = " + id))
                .containsExactly("pros");

        HttpResponse<String> bad = api.post(token, "/api/v1/campaigns", "{\"name\":\"To nobody\",\"template\":\"newsletter\","
                + "\"from\":\"news@sender.example\",\"segments\":[\"pros\", \"nope\"]}");
        assertThat(bad.statusCode()).as(bad.body()).isEqualTo(422);
        assertThat(json(bad).get("errors")).hasSize(1);
        assertThat(json(bad).get("errors").get(0).get("field").asText()).isEqualTo("segments");
        assertThat(json(bad).get("errors").get(0).get("reason").asText()).isEqualTo("no segment named 'nope'");
        assertThat(rows("SELECT COUNT(*) FROM campaign")).containsExactly("1");
    }

    private static List<String> targets(long campaignId) throws Exception {
        return rows("SELECT l.name FROM campaign_list cl JOIN subscriber_list l ON l.id = cl.list_id WHERE cl.campaign_id = " + campaignId);
    }

    private static List<String> rows(String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
