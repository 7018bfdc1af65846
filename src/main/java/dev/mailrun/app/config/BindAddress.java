package dev.mailrun.app.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/**
 * {@code http.bind}: an IPv4 address, an IPv6 address or a host name, checked for form when the
 * configuration is read, so a typo such as 999.1.1.1 is a configuration error naming the key
 * rather than a failure to listen later. A host name is resolved only when the endpoint starts.
 */
final class BindAddress {

    private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?");

    private BindAddress() {}

    static String check(String key, String value) {
        if (value.matches("[0-9.]+")) {
            if (!isIpv4(value)) {
                throw ConfigException.invalid(key, "is not an IPv4 address (four numbers 0-255), got '" + value + "'");
            }
        } else if (value.contains(":")) {
            try {
                // In brackets the JDK parses an IPv6 literal and never asks DNS.
                InetAddress.getByName(value.startsWith("[") ? value : "[" + value + "]");
            } catch (UnknownHostException e) {
                throw ConfigException.invalid(key, "is not an IPv6 address, got '" + value + "'");
            }
        } else if (value.length() > 253 || !value.chars().allMatch(c -> c < 128)
                || !java.util.Arrays.stream(value.split("\\.", -1)).allMatch(l -> LABEL.matcher(l).matches())) {
            throw ConfigException.invalid(key, "must be an IP address or a host name, got '" + value + "'");
        }
        return value;
    }

    private static boolean isIpv4(String value) {
        String[] parts = value.split("\\.", -1);
        if (parts.length != 4) {
            return false;
        }
        for (String p : parts) {
            if (p.isEmpty() || p.length() > 3 || Integer.parseInt(p) > 255) {
                return false;
            }
        }
        return true;
    }
}
