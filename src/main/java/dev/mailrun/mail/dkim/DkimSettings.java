package dev.mailrun.mail.dkim;

import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * DKIM signing ({@code dkim.domain}, {@code dkim.selector}, {@code dkim.private-key-file}). The
 * public key is published at {@code <selector>._domainkey.<domain>}.
 */
public record DkimSettings(String domain, String selector, Path privateKeyFile) {

    private static final Pattern DOMAIN = Pattern.compile("([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?");
    private static final Pattern SELECTOR = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*");

    public DkimSettings {
        if (domain == null || !DOMAIN.matcher(domain.strip().toLowerCase(Locale.ROOT)).matches()) {
            throw new IllegalArgumentException("dkim.domain must be a domain name such as mail.example.com, was '" + domain + "'");
        }
        if (selector == null || !SELECTOR.matcher(selector.strip().toLowerCase(Locale.ROOT)).matches()) {
            throw new IllegalArgumentException("dkim.selector must be letters, digits, '-' and '.', was '" + selector + "'");
        }
        if (privateKeyFile == null) {
            throw new IllegalArgumentException("dkim.private-key-file is not set");
        }
        domain = domain.strip().toLowerCase(Locale.ROOT);
        selector = selector.strip().toLowerCase(Locale.ROOT);
    }

    /** The DNS name of the TXT record that holds the public key. */
    String dnsRecordName() {
        return selector + "._domainkey." + domain;
    }
}
