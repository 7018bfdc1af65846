package dev.mailrun.app.api;

import static dev.mailrun.app.api.ApiHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Segments over real HTTP and MariaDB: saved, counted, previewed, changed, deleted; a bad filter names each bad path. */
class SegmentsApiTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final SettableClock clock = SettableClock.at("2026-12-07T10:00:00Z");
    private ApiHarness api;
    private String token;

    @BeforeEach
    void start() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            for (String table : List.of("api_token", "api_audit", "api_idempotency", "subscriber", "subscriber_list", "segment",
                    "suppression")) {
                s.execute("DELETE FROM " + table);
            }
        }
        api = new ApiHarness(WorkerEnv.of(db, 2525), clock);
        token = api.token("crm", ApiScope.AUDIENCE_READ, ApiScope.AUDIENCE_WRITE);
        api.post(token, "/api/v1/lists", "{\"name\":\"customers\"}");
        for (int i = 1; i <= 4; i++) {
            api.post(token, "/api/v1/subscribers", "{\"email\":\"c" + i + "@example.com\",\"attributes\":{\"seats\":" + (i * 10) + "}"
                    + (i % 2 == 0 ? ",\"lists\":[\"customers\"]" : "") + "}");
        }
    }

    @AfterEach
    void stop() {
        api.close();
    }

    @Test
    void a_segment_is_saved_read_with_its_count_and_preview_changed_listed_and_deleted() {
        HttpResponse<String> created = api.post(token, "/api/v1/segments",
                "{\"name\":\"big\",\"filter\":{\"attr\":\"seats\",\"range\":{\"gte\":20}}}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(json(created).get("count").asLong()).isEqualTo(3);
        assertThat(json(created).get("filter").get("attr").asText()).isEqualTo("seats");

        JsonNode read = json(api.get(token, "/api/v1/segments/BIG?preview=2"));
        assertThat(read.get("count").asLong()).isEqualTo(3);
        List<String> preview = new ArrayList<>();
        read.get("preview").forEach(p -> preview.add(p.get("email").asText()));
        assertThat(preview).containsExactly("c2@example.com", "c3@example.com");

        HttpResponse<String> changed = api.call(token, "PATCH", "/api/v1/segments/big", "application/json",
                "{\"name\":\"big customers\",\"filter\":{\"and\":[{\"attr\":\"seats\",\"range\":{\"gte\":20}},{\"list\":\"customers\"}]}}");
        assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
        assertThat(json(changed).get("count").asLong()).isEqualTo(2);
        assertThat(json(api.get(token, "/api/v1/segments")).get("segments").get(0).get("name").asText()).isEqualTo("big customers");

        assertThat(api.call(token, "DELETE", "/api/v1/segments/big%20customers", null, null).statusCode()).isEqualTo(200);
        assertThat(api.get(token, "/api/v1/segments/big%20customers").statusCode()).isEqualTo(404);
    }

    @Test
    void a_filter_not_saved_is_counted_and_every_bad_part_is_422_named_by_its_path() {
        HttpResponse<String> count = api.post(token, "/api/v1/segments/count", "{\"filter\":{\"list\":\"customers\"}}");
        assertThat(count.statusCode()).as(count.body()).isEqualTo(200);
        assertThat(json(count).get("count").asLong()).isEqualTo(2);

        HttpResponse<String> bad = api.post(token, "/api/v1/segments",
                "{\"name\":\"x\",\"filter\":{\"and\":[{\"list\":\"nope\"},{\"attr\":\"\",\"eq\":1},{\"attr\":\"a\",\"flag\":true}]}}");
        assertThat(bad.statusCode()).isEqualTo(422);
        List<String> fields = new ArrayList<>();
        json(bad).get("errors").forEach(e -> fields.add(e.get("field").asText()));
        assertThat(fields).contains("filter.and[1].attr", "filter.and[2].flag");
        HttpResponse<String> unknownList = api.post(token, "/api/v1/segments/count", "{\"filter\":{\"or\":[{\"status\":\"enabled\"},"
                + "{\"list\":\"nope\"}]}}");
        assertThat(json(unknownList).get("errors").get(0).get("field").asText()).isEqualTo("filter.or[1].list");
        assertThat(json(unknownList).get("errors").get(0).get("reason").asText()).isEqualTo("no list named 'nope'");
        HttpResponse<String> none = api.post(token, "/api/v1/segments", "{\"name\":\"x\"}");
        assertThat(json(none).get("errors").get(0).get("field").asText()).isEqualTo("filter");
        assertThat(json(api.get(token, "/api/v1/segments")).get("segments")).isEmpty();
    }

    @Test
    void counting_needs_only_the_read_scope_and_saving_the_write_scope() {
        String reader = api.token("dashboard", ApiScope.AUDIENCE_READ);
        assertThat(api.post(reader, "/api/v1/segments/count", "{\"filter\":{\"status\":\"enabled\"}}").statusCode()).isEqualTo(200);
        assertThat(api.post(reader, "/api/v1/segments", "{\"name\":\"x\",\"filter\":{\"status\":\"enabled\"}}").statusCode())
                .isEqualTo(403);
    }
}
