package dev.mailrun.app.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.store.TrackedLinkTable;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code track} on POST /campaigns: as campaign create --track, and refused while tracking is off. */
class TrackingApiTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final SettableClock clock = SettableClock.at("2026-11-26T10:00:00Z");
    private static final String BODY = "{\"name\":\"Sale\",\"template\":\"newsletter\",\"from\":\"news@sender.example\",\"track\":\"%s\"}";

    @Test
    void a_campaign_created_with_track_is_tracked_and_a_bad_value_is_422() throws Exception {
        Map<String, String> env = WorkerEnv.of(db, 2525);
        env.put("MAILRUN_TRACKING_ENABLED", "true");
        env.put("MAILRUN_TRACKING_BASE_URL", "https://t.sender.example");
        try (ApiHarness api = new ApiHarness(env, clock)) {
            HttpResponse<String> created = api.post(ApiHarness.ADMIN_TOKEN, "/api/v1/campaigns", BODY.formatted("opens,clicks"));
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            long id = ApiHarness.json(created).path("id").asLong();
            try (Connection c = db.dataSource().getConnection()) {
                assertThat(new TrackedLinkTable().mode(c, id)).hasValueSatisfying(m -> assertThat(m.text()).isEqualTo("opens,clicks"));
            }
            HttpResponse<String> bad = api.post(ApiHarness.ADMIN_TOKEN, "/api/v1/campaigns", BODY.formatted("views"));
            assertThat(bad.statusCode()).isEqualTo(422);
        }
    }

    @Test
    void erase_tracking_answers_how_many_were_erased_and_a_bad_address_is_422() throws Exception {
        try (ApiHarness api = new ApiHarness(WorkerEnv.of(db, 2525), clock)) {
            HttpResponse<String> r = api.post(ApiHarness.ADMIN_TOKEN, "/api/v1/suppressions/Ann%40List.example/erase-tracking", null);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            assertThat(ApiHarness.json(r).path("address").asText()).isEqualTo("ann@list.example");
            assertThat(ApiHarness.json(r).path("erased").asInt()).isZero();
            HttpResponse<String> bad = api.post(ApiHarness.ADMIN_TOKEN, "/api/v1/suppressions/not-an-address/erase-tracking", null);
            assertThat(bad.statusCode()).isEqualTo(422);
        }
    }

    @Test
    void track_while_tracking_is_off_is_422_naming_the_field() throws Exception {
        try (ApiHarness api = new ApiHarness(WorkerEnv.of(db, 2525), clock)) {
            HttpResponse<String> r = api.post(ApiHarness.ADMIN_TOKEN, "/api/v1/campaigns", BODY.formatted("clicks"));
            assertThat(r.statusCode()).isEqualTo(422);
            assertThat(ApiHarness.json(r).path("detail").asText()).startsWith("track: tracking is not enabled");
        }
    }
}
