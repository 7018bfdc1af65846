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
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A campaign's web version setting through the API, every answer checked against the contract: given at
 * create, read on every campaign (its own, or webversion.personal's for a campaign without one), changed
 * on a draft with PATCH, copied by a clone; another value is 422 naming web_version.
 */
class ApiWebVersionTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final SettableClock clock = SettableClock.at("2026-11-21T10:00:00Z");

    private ApiHarness api(boolean personal) throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            for (String table : List.of("api_token", "api_audit", "api_idempotency", "campaign", "task")) {
                s.execute("DELETE FROM " + table);
            }
        }
        Map<String, String> env = WorkerEnv.of(db, 2525);
        env.put("MAILRUN_WEBVERSION_PERSONAL", Boolean.toString(personal));
        return new ApiHarness(env, clock);
    }

    private static HttpResponse<String> create(ApiHarness api, String token, String more) {
        return api.post(token, "/api/v1/campaigns", "{\"name\":\"Spring\",\"template\":\"newsletter\",\"from\":\"news@sender.example\""
                + more + "}");
    }

    @Test
    void the_setting_is_given_at_create_read_on_every_campaign_changed_on_a_draft_and_copied_by_a_clone() throws Exception {
        try (ApiHarness api = api(false)) {
            String token = api.token("ops", ApiScope.ADMIN);
            HttpResponse<String> own = create(api, token, ",\"web_version\":\"personal\"");
            assertThat(own.statusCode()).as(own.body()).isEqualTo(201);
            assertThat(json(own).get("web_version").asText()).as("its own setting, over webversion.personal=false")
                    .isEqualTo("personal");
            String plain = json(create(api, token, "")).get("id").asText();
            String path = "/api/v1/campaigns/" + plain;
            HttpResponse<String> read = api.get(token, path);
            assertThat(json(read).get("web_version").asText()).as("without one: webversion.personal's").isEqualTo("anonymous");
            assertThat(json(api.get(token, "/api/v1/campaigns")).get("campaigns")).extracting(c -> c.get("web_version").asText())
                    .containsExactly("personal", "anonymous");

            HttpResponse<String> patched = api.call(token, "PATCH", path, "application/json", "{\"web_version\":\"personal\"}",
                    "If-Match", read.headers().firstValue("ETag").orElseThrow());
            assertThat(patched.statusCode()).as(patched.body()).isEqualTo(200);
            assertThat(json(patched).get("web_version").asText()).isEqualTo("personal");
            HttpResponse<String> other = api.call(token, "PATCH", path, "application/json", "{\"rate\":3}",
                    "If-Match", patched.headers().firstValue("ETag").orElseThrow());
            assertThat(json(other).get("web_version").asText()).as("a change of another field keeps it").isEqualTo("personal");

            JsonNode clone = json(api.post(token, path + "/clone", "{}"));
            assertThat(clone.get("web_version").asText()).isEqualTo("personal");
        }
        try (ApiHarness api = api(true)) {
            String token = api.token("ops", ApiScope.ADMIN);
            String anonymous = json(create(api, token, ",\"web_version\":\"anonymous\"")).get("id").asText();
            assertThat(json(api.get(token, "/api/v1/campaigns/" + anonymous)).get("web_version").asText()).isEqualTo("anonymous");
        }
    }

    @Test
    void another_value_is_422_naming_web_version_and_nothing_is_created_or_changed() throws Exception {
        try (ApiHarness api = api(true)) {
            String token = api.token("ops", ApiScope.ADMIN);
            HttpResponse<String> bad = create(api, token, ",\"web_version\":\"public\"");
            assertThat(bad.statusCode()).isEqualTo(422);
            assertThat(fields(bad)).containsExactly("web_version");
            assertThat(json(bad).get("detail").asText()).isEqualTo("web_version: must be personal or anonymous, got 'public'");
            assertThat(json(api.get(token, "/api/v1/campaigns")).get("campaigns")).isEmpty();

            String id = json(create(api, token, "")).get("id").asText();
            String path = "/api/v1/campaigns/" + id;
            String etag = api.get(token, path).headers().firstValue("ETag").orElseThrow();
            HttpResponse<String> badPatch = api.call(token, "PATCH", path, "application/json", "{\"web_version\":\"\"}",
                    "If-Match", etag);
            assertThat(badPatch.statusCode()).isEqualTo(422);
            assertThat(fields(badPatch)).containsExactly("web_version");
            assertThat(json(api.get(token, path)).get("web_version").asText()).isEqualTo("personal");
            assertThat(api.get(token, path).headers().firstValue("ETag")).as("nothing changed").hasValue(etag);
        }
    }

    private static List<String> fields(HttpResponse<String> r) {
        List<String> named = new ArrayList<>();
        json(r).get("errors").forEach(e -> named.add(e.get("field").asText()));
        return named;
    }
}
