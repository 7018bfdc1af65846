package dev.mailrun.campaign.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RelayRouteTest {

    @Test
    void a_weighted_list_reads_back_as_written() {
        RelayRoute route = RelayRoute.parse("primary:70, backup:30");
        assertThat(route.relays()).containsExactly("primary", "backup");
        assertThat(route.weights()).containsExactly(70, 30);
        assertThat(RelayRoute.parse(route.text())).isEqualTo(route);
    }

    @Test
    void a_plain_list_sends_through_its_first_relay_and_keeps_the_others_in_reserve() {
        assertThat(RelayRoute.parse("primary,backup").weights()).containsExactly(1, 0);
        assertThat(RelayRoute.parse("solo").weights()).containsExactly(1);
        assertThat(RelayRoute.parse("a:5,b").weights()).containsExactly(5, 0);
    }

    @Test
    void a_route_is_written_with_the_weights_it_sends_by_as_status_shows_them() {
        assertThat(RelayRoute.parse("b").text()).isEqualTo("b:1");
        assertThat(RelayRoute.parse("primary,backup").text()).isEqualTo("primary:1,backup:0");
        assertThat(RelayRoute.parse(RelayRoute.parse("primary,backup").text()).weights()).containsExactly(1, 0);
        assertThat(RelayRoute.parse("a:5,b").text()).isEqualTo("a:5,b:0");
    }

    @Test
    void a_bad_route_is_refused_with_one_line_naming_what_is_wrong() {
        assertThatThrownBy(() -> RelayRoute.parse("")).hasMessage("must name at least one relay");
        // One phrasing for every problem with one relay of the route: "relay 'NAME': what is wrong".
        assertThatThrownBy(() -> RelayRoute.parse("primary:seventy"))
                .hasMessage("relay 'primary': weight must be a whole number 0..10000, got 'seventy'");
        assertThatThrownBy(() -> RelayRoute.parse("primary:20000"))
                .hasMessage("relay 'primary': weight must be a whole number 0..10000, got '20000'");
        assertThatThrownBy(() -> RelayRoute.parse("a,a")).hasMessage("relay 'a': named twice (name each relay once)");
        assertThatThrownBy(() -> RelayRoute.parse("Primary")).hasMessageStartingWith("relay name 'Primary' must be");
        assertThatThrownBy(() -> RelayRoute.parse("a,,b")).hasMessageStartingWith("relay name '' must be");
    }
}
