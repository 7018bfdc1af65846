package dev.mailrun.http.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which address a request came from, behind the proxies an operator trusts (tracking, the console). */
class TrustedProxiesTest {

    @Test
    void the_walk_from_the_right_stops_at_the_first_address_that_is_not_a_trusted_proxy() throws Exception {
        TrustedProxies proxies = TrustedProxies.parse("10.0.0.0/8, 2001:db8::/32");
        InetAddress peer = InetAddress.getByName("10.0.0.1");
        assertThat(proxies.client(peer, List.of("203.0.113.5", "2001:db8::7"))).contains(InetAddress.getByName("203.0.113.5"));
        assertThat(proxies.client(peer, List.of())).as("nothing forwarded: the proxy itself").contains(peer);
        assertThat(proxies.client(InetAddress.getByName("192.0.2.9"), List.of("203.0.113.5")))
                .contains(InetAddress.getByName("192.0.2.9"));
        assertThat(proxies.client(peer, List.of("203.0.113.5:4711"))).isEmpty();
        List<String> longChain = new java.util.ArrayList<>(List.of("203.0.113.5"));
        for (int i = 0; i < TrustedProxies.MAX_HOPS; i++) {
            longChain.add("10.0.0." + (i + 2));
        }
        assertThat(proxies.client(peer, longChain)).as("at most MAX_HOPS proxies in a row are followed")
                .contains(InetAddress.getByName("10.0.0.2"));
        assertThat(TrustedProxies.parse(" , ").networks()).isEmpty();
        assertThatThrownBy(() -> TrustedProxies.parse("10.0.0.0/8, 10.0.0.0/33"))
                .hasMessage("'10.0.0.0/33' is not a network (CIDR such as 10.0.0.0/8 or 2001:db8::/32)");
        assertThatThrownBy(() -> TrustedProxies.parse("proxy.example")).hasMessageContaining("'proxy.example' is not a network");
    }
}
