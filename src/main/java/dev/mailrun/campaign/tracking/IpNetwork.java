package dev.mailrun.campaign.tracking;

import java.net.InetAddress;
import java.util.Arrays;

/**
 * A network in CIDR notation ({@code 17.0.0.0/8}, {@code 2001:db8::/32}; a bare address is the
 * network of that address alone). Written and parsed without DNS ({@link IpLiteral}).
 */
public final class IpNetwork {

    private final byte[] network;
    private final int prefix;
    private final String text;

    private IpNetwork(byte[] network, int prefix, String text) {
        this.network = network;
        this.prefix = prefix;
        this.text = text;
    }

    /** The network {@code cidr} spells; an {@link IllegalArgumentException} naming it for anything else. */
    public static IpNetwork parse(String cidr) {
        String s = cidr.strip();
        int slash = s.indexOf('/');
        String address = slash < 0 ? s : s.substring(0, slash);
        try {
            byte[] bytes = IpLiteral.parse(address).orElseThrow(NumberFormatException::new).getAddress();
            String bits = slash < 0 ? "" : s.substring(slash + 1);
            if (slash >= 0 && (bits.isEmpty() || bits.length() > 3 || !bits.chars().allMatch(Character::isDigit))) {
                throw new NumberFormatException();
            }
            int prefix = slash < 0 ? bytes.length * 8 : Integer.parseInt(bits);
            if (prefix > bytes.length * 8) {
                throw new NumberFormatException();
            }
            return new IpNetwork(bytes, prefix, s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + cidr + "' is not a network (CIDR such as 10.0.0.0/8 or 2001:db8::/32)");
        }
    }

    /** Whether {@code address} is in it; an IPv4 address is never in an IPv6 network, nor the reverse. */
    public boolean contains(InetAddress address) {
        byte[] a = address.getAddress();
        if (a.length != network.length) {
            return false;
        }
        int full = prefix / 8;
        if (!Arrays.equals(a, 0, full, network, 0, full)) {
            return false;
        }
        int rest = prefix % 8;
        if (rest == 0) {
            return true;
        }
        int mask = 0xFF << (8 - rest) & 0xFF;
        return (a[full] & mask) == (network[full] & mask);
    }

    @Override
    public String toString() {
        return text;
    }
}
