package dev.mailrun.events.delivery;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.SocketAddressResolver;

/**
 * The HTTP client's resolver: resolves a receiver's host and hands the client only the addresses an
 * operator-given URL may reach. Loopback, link-local (169.254/16, the cloud metadata address among
 * them), site-local, unique-local IPv6, wildcard and multicast addresses are refused unless the
 * endpoint allows private addresses. The check is on the addresses the client then connects to, so
 * a name that resolves differently the second time cannot slip past it.
 */
final class AddressGuard implements SocketAddressResolver {

    private final boolean allowPrivate;

    AddressGuard(boolean allowPrivate) {
        this.allowPrivate = allowPrivate;
    }

    @Override
    public void resolve(String host, int port, Map<String, Object> context, Promise<List<InetSocketAddress>> promise) {
        try {
            List<InetSocketAddress> allowed = new ArrayList<>();
            for (InetAddress a : InetAddress.getAllByName(host)) {
                if (allowPrivate || isPublic(a)) {
                    allowed.add(new InetSocketAddress(a, port));
                }
            }
            if (allowed.isEmpty()) {
                promise.failed(new UnknownHostException(host + " resolves only to internal addresses (loopback, link-local,"
                        + " private or multicast), which an event endpoint may not reach unless allow-private-addresses is true"));
            } else {
                promise.succeeded(allowed);
            }
        } catch (UnknownHostException e) {
            promise.failed(e);
        }
    }

    static boolean isPublic(InetAddress a) {
        if (a.isLoopbackAddress() || a.isLinkLocalAddress() || a.isSiteLocalAddress() || a.isAnyLocalAddress()
                || a.isMulticastAddress()) {
            return false;
        }
        byte[] b = a.getAddress();
        if (b.length == 16) {
            // fc00::/7, unique local addresses: IPv6's private range (isSiteLocalAddress knows only fec0::/10)
            return (b[0] & 0xfe) != 0xfc;
        }
        // 100.64/10 (carrier-grade NAT) and 0/8 are not for the internet either
        return !((b[0] & 0xff) == 100 && (b[1] & 0xc0) == 64) && b[0] != 0;
    }
}
