package dev.mailrun.campaign.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Idempotency keys on the real database: claimed exactly once however many retries race, replayed, kept 24 h. */
class IdempotencyKeysTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final SettableClock clock = SettableClock.at("2026-11-21T10:00:00Z");
    private IdempotencyKeys keys;

    @BeforeEach
    void empty() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM api_idempotency");
        }
        keys = new IdempotencyKeys(db.dataSource(), clock);
    }

    private static byte[] request(String text) {
        return ApiTokens.sha256(text);
    }

    @Test
    void of_many_retries_racing_with_one_key_exactly_one_claims_it_each_round() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            for (int round = 0; round < 20; round++) {
                String key = "key-" + round;
                CountDownLatch go = new CountDownLatch(1);
                List<Future<IdempotencyKeys.Claim>> claims = new ArrayList<>();
                for (int t = 0; t < 16; t++) {
                    claims.add(pool.submit(() -> {
                        go.await();
                        return keys.claim("crm", key, request("POST /x body"));
                    }));
                }
                go.countDown();
                int claimed = 0;
                for (Future<IdempotencyKeys.Claim> f : claims) {
                    IdempotencyKeys.Claim c = f.get();
                    assertThat(c).isInstanceOfAny(IdempotencyKeys.Claimed.class, IdempotencyKeys.InProgress.class);
                    claimed += c instanceof IdempotencyKeys.Claimed ? 1 : 0;
                }
                assertThat(claimed).as("round " + round).isEqualTo(1);
            }
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void a_completed_key_replays_its_answer_refuses_another_request_and_is_free_again_after_24_hours() throws Exception {
        assertThat(keys.claim("crm", "k", request("a"))).isInstanceOf(IdempotencyKeys.Claimed.class);
        keys.complete("crm", "k", 201, "application/json", Map.of("Location", "/api/v1/campaigns/7"),
                "{\"id\":\"7\"}".getBytes(StandardCharsets.UTF_8));
        IdempotencyKeys.Claim replay = keys.claim("crm", "k", request("a"));
        assertThat(replay).isInstanceOfSatisfying(IdempotencyKeys.Replay.class, r -> {
            assertThat(r.status()).isEqualTo(201);
            assertThat(r.headers()).containsEntry("Location", "/api/v1/campaigns/7");
            assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("{\"id\":\"7\"}");
        });
        assertThat(keys.claim("crm", "k", request("b"))).isInstanceOf(IdempotencyKeys.Mismatch.class);
        assertThat(keys.claim("other-token", "k", request("b"))).as("keys are per token").isInstanceOf(IdempotencyKeys.Claimed.class);
        clock.advance(Duration.ofHours(24).plusSeconds(1));
        assertThat(keys.claim("crm", "k", request("b"))).isInstanceOf(IdempotencyKeys.Claimed.class);
    }

    @Test
    void a_released_key_can_be_claimed_again() throws Exception {
        assertThat(keys.claim("crm", "k", request("a"))).isInstanceOf(IdempotencyKeys.Claimed.class);
        assertThat(keys.claim("crm", "k", request("a"))).isInstanceOf(IdempotencyKeys.InProgress.class);
        keys.release("crm", "k");
        assertThat(keys.claim("crm", "k", request("a"))).isInstanceOf(IdempotencyKeys.Claimed.class);
    }
}
