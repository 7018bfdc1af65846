package dev.mailrun.http.server;

import dev.mailrun.campaign.tracking.IpLiteral;
import dev.mailrun.campaign.tracking.IpNetwork;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The operator's reverse proxies ({@code tracking.trusted-proxies} in front of the public listener,
 * {@code console.trusted-proxies} in front of the console): the only peers whose forwarding
 * headers are read. For tracking that is {@code X-Forwarded-For}. Each proxy appends the address it got the request from, so
 * the client is found from the right: starting at the peer, while the address in hand is a trusted
 * proxy, the next entry to the left is the one that proxy wrote. The first address that is not a
 * trusted proxy is the client. Whatever a client wrote itself stands further left and is never
 * read; from a peer that is not trusted the header is not read at all.
 */
public final class TrustedProxies {

    public static final TrustedProxies NONE = new TrustedProxies(List.of());
    /** Proxies in a row followed at most: a chain longer than this is not the operator's. */
    static final int MAX_HOPS = 16;

    private final List<IpNetwork> networks;

    public TrustedProxies(List<IpNetwork> networks) {
        this.networks = List.copyOf(networks);
    }

    /** Comma-separated networks; an {@link IllegalArgumentException} naming the first that is not one. */
    public static TrustedProxies parse(String commaSeparated) {
        return new TrustedProxies(Arrays.stream(commaSeparated.split(",")).map(String::strip).filter(s -> !s.isEmpty())
                .map(IpNetwork::parse).toList());
    }

    public List<IpNetwork> networks() {
        return networks;
    }

    /**
     * The client's address, given the peer's and the {@code X-Forwarded-For} entries in header
     * order; empty when a trusted proxy wrote something that is not an address.
     */
    public Optional<InetAddress> client(InetAddress peer, List<String> forwardedFor) {
        InetAddress current = peer;
        int next = forwardedFor.size() - 1;
        for (int hops = 0; hops < MAX_HOPS && next >= 0 && trusts(current); hops++, next--) {
            Optional<InetAddress> written = IpLiteral.parse(forwardedFor.get(next));
            if (written.isEmpty()) {
                return Optional.empty();
            }
            current = written.get();
        }
        return Optional.of(current);
    }

    public boolean isEmpty() {
        return networks.isEmpty();
    }

    /** Whether {@code address} is one of the operator's proxies: what a header from it is believed on. */
    public boolean trusts(InetAddress address) {
        for (IpNetwork n : networks) {
            if (n.contains(address)) {
                return true;
            }
        }
        return false;
    }
}
