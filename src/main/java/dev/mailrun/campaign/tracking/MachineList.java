package dev.mailrun.campaign.tracking;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The known image proxies and link scanners, and the clients known to be people whose user agents
 * name no browser (a mail client, an image proxy that fetches only when its person opens), read from a data file (format in the shipped
 * {@code tracking/machines.txt}) so that the list is updated without a release. Read-only once built.
 */
public final class MachineList {

    static final String RESOURCE = "/tracking/machines.txt";

    private record UaRule(String family, String text, boolean exact) {
        boolean matches(String userAgent) {
            return exact ? userAgent.equalsIgnoreCase(text) : userAgent.toLowerCase(Locale.ROOT).contains(text);
        }
    }

    private record NetRule(String family, IpNetwork network) {
        boolean contains(InetAddress address) {
            return network.contains(address);
        }
    }

    private final List<UaRule> proxyAgents;
    private final List<NetRule> proxyNets;
    private final List<UaRule> scannerAgents;
    private final List<UaRule> personAgents;

    private MachineList(List<UaRule> proxyAgents, List<NetRule> proxyNets, List<UaRule> scannerAgents, List<UaRule> personAgents) {
        this.proxyAgents = List.copyOf(proxyAgents);
        this.proxyNets = List.copyOf(proxyNets);
        this.scannerAgents = List.copyOf(scannerAgents);
        this.personAgents = List.copyOf(personAgents);
    }

    /** The list shipped with mailrun. */
    public static MachineList shipped() {
        try (InputStream in = MachineList.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the jar");
            }
            return parse(RESOURCE, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + RESOURCE + ": " + e.getMessage(), e);
        }
    }

    /** The operator's list ({@code tracking.machines-file}), used instead of the shipped one. */
    public static MachineList read(Path file) throws IOException {
        return parse(file.toString(), Files.readString(file, StandardCharsets.UTF_8));
    }

    /** @throws IllegalArgumentException naming the file, line and what is wrong with it */
    static MachineList parse(String name, String text) {
        List<UaRule> proxyAgents = new ArrayList<>();
        List<NetRule> proxyNets = new ArrayList<>();
        List<UaRule> scannerAgents = new ArrayList<>();
        List<UaRule> personAgents = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        for (int n = 0; n < lines.length; n++) {
            String line = lines[n].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split("\\s+", 3);
            if (parts.length < 3) {
                throw new IllegalArgumentException(name + ":" + (n + 1) + ": expected <kind> <family> <pattern>");
            }
            String family = parts[1];
            String pattern = parts[2].strip();
            switch (parts[0]) {
                case "open-proxy-ua" -> proxyAgents.add(new UaRule(family, pattern.toLowerCase(Locale.ROOT), false));
                case "open-proxy-ua=" -> proxyAgents.add(new UaRule(family, pattern, true));
                case "open-proxy-net" -> proxyNets.add(net(name, n + 1, family, pattern));
                case "scanner-ua" -> scannerAgents.add(new UaRule(family, pattern.toLowerCase(Locale.ROOT), false));
                case "person-ua" -> personAgents.add(new UaRule(family, pattern.toLowerCase(Locale.ROOT), false));
                default -> throw new IllegalArgumentException(name + ":" + (n + 1) + ": unknown kind '" + parts[0]
                        + "' (open-proxy-ua, open-proxy-ua=, open-proxy-net, scanner-ua, person-ua)");
            }
        }
        return new MachineList(proxyAgents, proxyNets, scannerAgents, personAgents);
    }

    private static NetRule net(String name, int line, String family, String cidr) {
        try {
            return new NetRule(family, IpNetwork.parse(cidr));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + ":" + line + ": '" + cidr + "' is not a network (CIDR such as 17.0.0.0/8)");
        }
    }

    /** The image proxy family a request of this shape comes from; empty when none is known. */
    Optional<String> imageProxy(String userAgent, Optional<InetAddress> client) {
        for (UaRule r : proxyAgents) {
            if (r.matches(userAgent)) {
                return Optional.of(r.family());
            }
        }
        if (client.isPresent()) {
            for (NetRule r : proxyNets) {
                if (r.contains(client.get())) {
                    return Optional.of(r.family());
                }
            }
        }
        return Optional.empty();
    }

    /** The family of a client known to be a person (a mail client, a proxy that fetches on opening); empty when none. */
    Optional<String> person(String userAgent) {
        return personAgents.stream().filter(r -> r.matches(userAgent)).map(UaRule::family).findFirst();
    }

    /** Whether the user agent is a known link scanner or a tool no person reads mail with. */
    boolean scanner(String userAgent) {
        return scannerAgents.stream().anyMatch(r -> r.matches(userAgent));
    }
}
