package dev.mailrun.db;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Credentials in JDBC URLs, hidden before anything is printed or logged.
 *
 * <p>MySQL Connector/J takes a password in the authority ({@code jdbc:mysql://user:secret@host/db})
 * and as a property in the query string or a host's key-value list ({@code ?password=secret},
 * {@code pwd=}, {@code password1=}, {@code trustCertificateKeyStorePassword=},
 * {@code (host=h,password=secret)}). {@link #masked} replaces every such value with {@code ***},
 * in a URL or in any text that quotes one (an exception message, a mistyped URL without
 * {@code jdbc:}). It errs on the side of hiding:
 * a malformed authority may lose more than its password.
 */
public final class JdbcUrls {

    static final String MASK = "***";

    /**
     * {@code jdbc:<subprotocol>://<authority>}, or any other {@code scheme://} (a URL mistyped without
     * {@code jdbc:}); the authority ends at '/', '?', '#' or whitespace.
     */
    private static final Pattern AUTHORITY = Pattern.compile("(?i)([a-z][a-z0-9+.:-]*//)([^\\s/?#]*)");

    /** {@code user:secret@} within an authority, one per host of a multi-host URL. */
    private static final Pattern USER_INFO = Pattern.compile("([^:@,\\s()\\[\\]]*):[^@,\\s]*@");

    /**
     * A property whose name mentions a password, after ?, &, ;, ( or , — its value up to the next
     * separator, whitespace, or a ": " that ends the URL in a message ("… at URL: reason").
     */
    private static final Pattern SECRET_PROPERTY =
            Pattern.compile("(?i)([?&;(,]\\s*[\\w.-]*(?:password|pwd)[\\w.-]*\\s*=)(?:[^&;)#\\s:]|:(?!\\s))*");

    /**
     * The URL schemes mailrun connects with, all spoken by MySQL Connector/J: a single host or a
     * failover list, its replication and load-balancing connections, and the DNS SRV forms of each
     * (Connector/J 8.0.19 and later). {@code jdbc:mariadb://} is read as {@code jdbc:mysql://}.
     */
    static final List<String> SCHEMES = List.of("jdbc:mysql://", "jdbc:mysql:replication://",
            "jdbc:mysql:loadbalance://", "jdbc:mysql+srv://", "jdbc:mysql:replication+srv://",
            "jdbc:mysql:loadbalance+srv://", "jdbc:mariadb://");

    private static final String MARIADB = "jdbc:mariadb://";

    private JdbcUrls() {}

    /**
     * The URL the driver is given: {@code url} itself, or with {@code jdbc:mariadb://} read as
     * {@code jdbc:mysql://}; empty when it starts with none of {@link #SCHEMES}.
     */
    public static Optional<String> forDriver(String url) {
        if (SCHEMES.stream().noneMatch(url::startsWith)) {
            return Optional.empty();
        }
        return Optional.of(url.startsWith(MARIADB) ? "jdbc:mysql://" + url.substring(MARIADB.length()) : url);
    }

    /** {@code text} with every JDBC password replaced by {@code ***}; null stays null. */
    public static String masked(String text) {
        if (text == null) {
            return null;
        }
        Matcher m = AUTHORITY.matcher(text);
        StringBuilder out = new StringBuilder(text.length());
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(m.group(1) + maskedAuthority(m.group(2))));
        }
        m.appendTail(out);
        return SECRET_PROPERTY.matcher(out).replaceAll("$1" + MASK);
    }

    /**
     * {@code user:***@host} for each host. User info the pattern could not split (a password with a
     * ',' or an '@' in it) hides everything before the last '@'.
     */
    private static String maskedAuthority(String authority) {
        String masked = USER_INFO.matcher(authority).replaceAll(r -> Matcher.quoteReplacement(r.group(1) + ":" + MASK + "@"));
        int at = masked.lastIndexOf('@');
        boolean allSplit = count(authority, '@') == count(masked, ":" + MASK + "@");
        if (at < 0 || allSplit || masked.lastIndexOf(':', at) < 0) {
            return masked; // no user info, each split, or users without passwords
        }
        return MASK + masked.substring(at);
    }

    private static int count(String text, char c) {
        return (int) text.chars().filter(ch -> ch == c).count();
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + part.length())) {
            n++;
        }
        return n;
    }
}
