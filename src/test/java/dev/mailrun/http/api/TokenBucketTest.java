package dev.mailrun.http.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.testing.SettableClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The per-token request budget, on a settable clock. */
class TokenBucketTest {

    private final SettableClock clock = SettableClock.at("2026-11-21T10:00:00Z");

    @Test
    void a_burst_goes_through_at_once_then_requests_are_let_through_at_the_rate() {
        TokenBucket bucket = new TokenBucket(4, 3, clock);
        for (int i = 0; i < 3; i++) {
            assertThat(bucket.take()).isZero();
        }
        assertThat(bucket.take()).isEqualTo(Duration.ofMillis(250));
        clock.advance(Duration.ofMillis(250));
        assertThat(bucket.take()).isZero();
        assertThat(bucket.take()).isPositive();
    }

    @Test
    void a_quiet_spell_refills_no_more_than_the_burst() {
        TokenBucket bucket = new TokenBucket(1, 2, clock);
        clock.advance(Duration.ofHours(1));
        assertThat(bucket.take()).isZero();
        assertThat(bucket.take()).isZero();
        assertThat(bucket.take()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void each_token_name_has_its_own_bucket() {
        RateLimits limits = new RateLimits(new ApiSettings(1, 1, 1024, 1024), clock);
        assertThat(limits.take("a")).isZero();
        assertThat(limits.take("a")).isPositive();
        assertThat(limits.take("b")).isZero();
    }
}
