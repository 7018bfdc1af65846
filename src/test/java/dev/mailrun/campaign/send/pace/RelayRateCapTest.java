package dev.mailrun.campaign.send.pace;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A relay of a route carries its part of the campaign's own rate, under the relay's share. */
class RelayRateCapTest {

    @Test
    void the_part_of_the_campaign_rate_a_relay_carries_caps_it_and_follows_its_share_of_the_route() {
        RelayRate rate = RelayRate.forRelay(40, 0);
        assertThat(rate.current()).isEqualTo(40);
        rate.capAt(7);   // --rate 10, this relay takes 70% of the route
        assertThat(rate.current()).isEqualTo(7);
        assertThat(rate.limiter().rate()).isEqualTo(7);
        rate.capAt(10);  // the other relay went down: this one takes everything
        assertThat(rate.current()).isEqualTo(10);
        rate.update(Lives.of(8, 0), 40, 0);   // eight workers on the relay: 5/s each, under the cap
        assertThat(rate.current()).isEqualTo(5);
        rate.capAt(3);
        assertThat(rate.current()).isEqualTo(3);
        rate.capAt(0);   // no campaign rate: the relay's share alone
        assertThat(rate.current()).isEqualTo(5);
    }
}
