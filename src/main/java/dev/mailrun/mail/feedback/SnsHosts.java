package dev.mailrun.mail.feedback;

import java.net.URI;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Which URLs in an SNS message mailrun will fetch: https on the default port, on an SNS endpoint
 * host ({@code sns.<region>.amazonaws.com}, {@code .com.cn} in China), without user information.
 * Anyone can put any URL into a forged message; only these are ever requested, so a forgery can
 * neither point the signature check at a certificate of its own nor make mailrun call other hosts.
 */
final class SnsHosts {

    private static final Pattern HOST = Pattern.compile("sns\\.[a-z0-9-]+\\.amazonaws\\.com(\\.cn)?");

    private SnsHosts() {}

    static boolean trusted(URI uri) {
        return uri != null && "https".equals(uri.getScheme()) && uri.getRawUserInfo() == null
                && (uri.getPort() == -1 || uri.getPort() == 443) && uri.getHost() != null
                && HOST.matcher(uri.getHost().toLowerCase(Locale.ROOT)).matches();
    }

    /** A signing certificate URL: a trusted URL of a .pem file. */
    static boolean trustedCertificate(URI uri) {
        return trusted(uri) && uri.getRawPath() != null && uri.getRawPath().endsWith(".pem") && uri.getRawQuery() == null;
    }

    static URI parse(String url) {
        try {
            return new URI(url);
        } catch (java.net.URISyntaxException | NullPointerException e) {
            return null;
        }
    }
}
