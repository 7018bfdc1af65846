package dev.mailrun.mail.feedback;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/**
 * The SNS signing certificates, fetched over https from SNS hosts only and kept while they are valid.
 * SNS signs with a handful of certificates (one per region, rotated rarely), so a small cache serves
 * every message after the first.
 *
 * <p>A certificate is used when it parses as X.509, is valid now and names an SNS host as its common
 * name ({@code sns.amazonaws.com} or {@code sns.<region>.amazonaws.com[.cn]}). Its authenticity rests on
 * the TLS connection to the SNS host it came from.
 */
final class SnsCertificates {

    /** What went wrong when no certificate can be used. */
    static final class Unusable extends Exception {
        private static final long serialVersionUID = 1L;

        Unusable(String message) {
            super(message);
        }
    }

    private static final int CACHED = 16;

    private final HttpsFetcher fetcher;
    private final Map<URI, X509Certificate> cache = new LinkedHashMap<>(CACHED, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<URI, X509Certificate> eldest) {
            return size() > CACHED;
        }
    };

    SnsCertificates(HttpsFetcher fetcher) {
        this.fetcher = fetcher;
    }

    /**
     * The certificate at {@code uri} (already checked with {@link SnsHosts#trustedCertificate}).
     *
     * @throws IOException when it cannot be fetched now (the caller answers so that SNS retries)
     * @throws Unusable    when what was fetched is no usable SNS certificate
     */
    X509Certificate get(URI uri, Instant now) throws IOException, Unusable {
        Optional<X509Certificate> cached = cached(uri);
        if (cached.isPresent() && validAt(cached.get(), now)) {
            return cached.get();
        }
        X509Certificate cert = parse(fetcher.get(uri));
        if (!validAt(cert, now)) {
            throw new Unusable("the signing certificate is not valid now");
        }
        if (!namesSns(cert)) {
            throw new Unusable("the signing certificate is not issued to an SNS host");
        }
        synchronized (cache) {
            cache.put(uri, cert);
        }
        return cert;
    }

    private Optional<X509Certificate> cached(URI uri) {
        synchronized (cache) {
            return Optional.ofNullable(cache.get(uri));
        }
    }

    private static X509Certificate parse(byte[] pem) throws Unusable {
        try {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(pem));
        } catch (CertificateException | ClassCastException e) {
            throw new Unusable("the signing certificate does not parse as X.509");
        }
    }

    private static boolean validAt(X509Certificate cert, Instant now) {
        Date at = Date.from(now);
        return !at.before(cert.getNotBefore()) && !at.after(cert.getNotAfter());
    }

    private static boolean namesSns(X509Certificate cert) {
        try {
            for (Rdn rdn : new LdapName(cert.getSubjectX500Principal().getName()).getRdns()) {
                if (rdn.getType().equalsIgnoreCase("CN")) {
                    String cn = rdn.getValue().toString().toLowerCase(Locale.ROOT);
                    return cn.matches("sns(\\.[a-z0-9-]+)?\\.amazonaws\\.com(\\.cn)?");
                }
            }
        } catch (InvalidNameException e) {
            return false;
        }
        return false;
    }
}
