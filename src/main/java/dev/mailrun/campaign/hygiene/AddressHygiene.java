package dev.mailrun.campaign.hygiene;

import dev.mailrun.campaign.model.EmailAddress;
import java.net.IDN;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Optional import-time rejection of addresses that hurt deliverability: disposable domains (nobody
 * reads them for long; many become spam traps) and role addresses (a function, not a subscriber).
 */
public final class AddressHygiene {

    public static final String DISPOSABLE = "disposable domain";
    static final String ROLE = "role address";

    static final String BUNDLED_DOMAINS = "/hygiene/disposable-domains.txt";
    static final String BUNDLED_ROLES = "/hygiene/role-local-parts.txt";

    private final boolean rejectDisposable;
    private final boolean rejectRole;
    private final Set<String> disposableDomains;
    private final Set<String> roleLocalParts;

    /**
     * @param disposableDomains domains, lower case (ASCII or Unicode); their subdomains match too
     * @param roleLocalParts    local parts, lower case
     */
    AddressHygiene(boolean rejectDisposable, boolean rejectRole, Set<String> disposableDomains,
                          Set<String> roleLocalParts) {
        this.rejectDisposable = rejectDisposable;
        this.rejectRole = rejectRole;
        this.disposableDomains = asciiDomains(disposableDomains);
        this.roleLocalParts = Set.copyOf(roleLocalParts);
    }

    /** The bundled lists; an operator's domain list file, when given, extends the bundled one. */
    public static AddressHygiene withBundledLists(boolean rejectDisposable, boolean rejectRole, Optional<Path> extraDomains) {
        Set<String> domains = new HashSet<>(NameList.bundled(BUNDLED_DOMAINS));
        extraDomains.ifPresent(p -> domains.addAll(NameList.file(p)));
        return new AddressHygiene(rejectDisposable, rejectRole, domains, NameList.bundled(BUNDLED_ROLES));
    }

    /** Why this address should not be imported; empty when it may be. */
    public Optional<String> rejectReason(EmailAddress address) {
        if (rejectRole && isRole(address.localPart())) {
            return Optional.of(ROLE);
        }
        if (rejectDisposable && isDisposable(address.domain())) {
            return Optional.of(DISPOSABLE);
        }
        return Optional.empty();
    }

    private boolean isRole(String localPart) {
        String local = localPart.toLowerCase(Locale.ROOT);
        int plus = local.indexOf('+');
        return roleLocalParts.contains(plus > 0 ? local.substring(0, plus) : local);
    }

    /** The domain or any parent of it is listed: {@code x.mailinator.com} is as disposable as its parent. */
    private boolean isDisposable(String domain) {
        String d = domain;
        while (true) {
            if (disposableDomains.contains(d)) {
                return true;
            }
            int dot = d.indexOf('.');
            if (dot < 0) {
                return false;
            }
            d = d.substring(dot + 1);
        }
    }

    /** Addresses hold punycode domains, so the list is compared in punycode too. */
    private static Set<String> asciiDomains(Set<String> domains) {
        Set<String> ascii = new HashSet<>();
        for (String d : domains) {
            String trimmed = d.strip().toLowerCase(Locale.ROOT);
            if (trimmed.startsWith("@") || trimmed.startsWith(".")) {
                trimmed = trimmed.substring(1);
            }
            if (!trimmed.isEmpty()) {
                try {
                    ascii.add(IDN.toASCII(trimmed).toLowerCase(Locale.ROOT));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("disposable domain list: '" + d + "' is not a domain name", e);
                }
            }
        }
        return Set.copyOf(ascii);
    }
}
