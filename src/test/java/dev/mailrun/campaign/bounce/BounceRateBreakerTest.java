package dev.mailrun.campaign.bounce;

import dev.mailrun.campaign.model.BounceRate;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class BounceRateBreakerTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final Rows rows = new Rows(db.dataSource());
    private final SettableClock clock = SettableClock.at("2025-03-10T12:00:00Z");
    private final BounceRateBreaker breaker = new BounceRateBreaker(db.dataSource(), new BounceSettings(3, 0.05, 100), clock);

    @BeforeEach
    void clean() throws Exception {
        rows.clear();
    }

    @Test
    void a_rate_above_the_limit_over_enough_sends_pauses_the_campaign_with_a_reason() throws Exception {
        long campaign = campaignWith(232, 18, "running");

        assertThat(breaker.pauseIfTooHigh(campaign)).contains("hard-bounce rate 7.2% over 250 sends exceeds 5.0%");
        assertThat(rows.string("SELECT CONCAT(status, ' ', updated_at) FROM campaign WHERE id = ?", campaign))
                .isEqualTo("paused 2025-03-10 12:00:00.000");
    }

    @Test
    void a_rate_exactly_at_the_limit_does_not_pause() throws Exception {
        long campaign = campaignWith(95, 5, "running");

        assertThat(breaker.rate(campaign)).isEqualTo(new BounceRate(campaign, 5, 100));
        assertThat(breaker.pauseIfTooHigh(campaign)).isEmpty();
        assertThat(rows.string("SELECT status FROM campaign WHERE id = ?", campaign)).isEqualTo("running");
    }

    @Test
    void a_high_rate_below_the_minimum_sample_does_not_pause() throws Exception {
        long campaign = campaignWith(60, 39, "running");

        assertThat(breaker.pauseIfTooHigh(campaign)).isEmpty();
    }

    @Test
    void a_campaign_that_is_not_running_is_left_alone() throws Exception {
        long campaign = campaignWith(100, 50, "completed");

        assertThat(breaker.pauseIfTooHigh(campaign)).isEmpty();
        assertThat(rows.string("SELECT status FROM campaign WHERE id = ?", campaign)).isEqualTo("completed");
    }

    @Test
    void pending_rows_and_failures_without_a_5xx_reply_are_not_hard_bounces() throws Exception {
        long campaign = campaignWith(100, 0, "running");
        for (int i = 0; i < 50; i++) {
            rows.recipient(campaign, "later" + i + "@example.com", "pending", null);
        }
        for (int i = 0; i < 20; i++) {
            rows.recipient(campaign, "gaveup" + i + "@example.com", "failed", null, 421);
        }

        assertThat(breaker.rate(campaign)).isEqualTo(new BounceRate(campaign, 0, 120));
    }

    private long campaignWith(int sent, int hardFailed, String status) throws Exception {
        long campaign = rows.campaign(status);
        for (int i = 0; i < sent; i++) {
            rows.recipient(campaign, "ok" + i + "@example.com", "sent", null);
        }
        for (int i = 0; i < hardFailed; i++) {
            rows.recipient(campaign, "bad" + i + "@example.com", "failed", null, 550);
        }
        return campaign;
    }
}
