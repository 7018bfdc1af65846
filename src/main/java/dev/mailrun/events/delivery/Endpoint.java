package dev.mailrun.events.delivery;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One receiver of events ({@code events.<name>.*}), validated on construction: an absolute
 * https URL (http only with {@code allowHttp}) without user info or fragment, a batch of 1–1000
 * events, a timeout of 1–60 s, a disable-after of at least an hour. {@code allowPrivate} lets the
 * URL's host resolve to loopback, link-local, site-local and other internal addresses (a receiver
 * on this machine or the local network); without it those are refused when connecting.
 */
public record Endpoint(String name, URI url, SigningSecret secret, TypeFilter types, int batch, Duration timeout,
                       Duration disableAfter, boolean allowHttp, boolean allowPrivate) {

    public static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,31}");

    public Endpoint {
        Objects.requireNonNull(secret, "secret");
        Objects.requireNonNull(types, "types");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("endpoint name '" + name
                    + "' must be a lower-case letter followed by up to 31 lower-case letters, digits or '-'");
        }
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!url.isAbsolute() || url.getHost() == null || !(scheme.equals("https") || scheme.equals("http"))) {
            throw new IllegalArgumentException(key(name, "url") + " must be an absolute https URL with a host");
        }
        if (scheme.equals("http") && !allowHttp) {
            throw new IllegalArgumentException(key(name, "url") + " is http: use https, or set " + key(name, "allow-http") + "=true");
        }
        if (url.getRawUserInfo() != null || url.getRawFragment() != null) {
            throw new IllegalArgumentException(key(name, "url") + " must not carry user info or a fragment");
        }
        if (batch < 1 || batch > 1000) {
            throw new IllegalArgumentException(key(name, "batch") + " must be 1–1000");
        }
        if (timeout.compareTo(Duration.ofSeconds(1)) < 0 || timeout.compareTo(Duration.ofSeconds(60)) > 0) {
            throw new IllegalArgumentException(key(name, "timeout") + " must be 1s–60s");
        }
        if (disableAfter.compareTo(Duration.ofHours(1)) < 0) {
            throw new IllegalArgumentException(key(name, "disable-after") + " must be at least 1h");
        }
    }

    /**
     * The internal addresses the URL's host resolves to, when it resolves to nothing else and private
     * addresses are not allowed: every delivery would be refused ({@link AddressGuard}), so the
     * configuration is refused at start rather than retried until the endpoint is disabled. Empty when
     * private addresses are allowed, when some address is public, and when the name does not resolve
     * now (it may later; each connection is checked again).
     */
    public Optional<String> internalOnly() {
        if (allowPrivate) {
            return Optional.empty();
        }
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(url.getHost());
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
        if (Arrays.stream(addresses).anyMatch(AddressGuard::isPublic)) {
            return Optional.empty();
        }
        return Optional.of(Arrays.stream(addresses).map(InetAddress::getHostAddress).distinct().collect(Collectors.joining(", ")));
    }

    static String key(String name, String suffix) {
        return "events." + name + "." + suffix;
    }

    /** The URL as logs show it: scheme, host, port and path, never a query (it may carry a token). */
    public String shownUrl() {
        return url.getScheme() + "://" + url.getHost() + (url.getPort() > 0 ? ":" + url.getPort() : "") + url.getRawPath();
    }

    @Override
    public String toString() {
        return "Endpoint[" + name + " " + shownUrl() + " types=" + types + " batch=" + batch + "]";
    }
}
