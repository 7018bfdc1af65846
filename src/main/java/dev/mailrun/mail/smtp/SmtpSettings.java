package dev.mailrun.mail.smtp;

import dev.mailrun.mail.HeaderValues;
import dev.mailrun.mail.Secret;
import dev.mailrun.mail.feedback.MessageTags;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How to reach one relay. Validated on construction; {@code toString} shows the password as {@code ***}.
 *
 * @param heloName      the name this host announces in EHLO; also keeps the mail library from
 *                      looking up the local host name
 * @param connections   SMTP connections a pool starts with ({@code smtp.connections}, default 4)
 * @param ratePerSecond messages per second across all connections ({@code smtp.rate}); 0 = unlimited
 * @param messageTags   the metadata headers this relay reads and echoes back in its event webhooks
 *                      (the enabled {@code feedback.*} providers); every message built with this relay's
 *                      session carries them
 * @param maxConnections the most connections a pool opens when the measured time per message says
 *                      its current count cannot reach the rate ({@code smtp.max-connections})
 * @param chunking      send with BDAT when the relay offers CHUNKING ({@code smtp.chunking})
 */
public record SmtpSettings(String host, int port, TlsMode tls, Optional<String> username, Optional<Secret> password,
                           Duration connectTimeout, Duration readTimeout, Duration writeTimeout,
                           String heloName, int connections, double ratePerSecond, MessageTags messageTags,
                           int maxConnections, boolean chunking) {

    /**
     * Settings whose pool may grow to {@link #DEFAULT_MAX_CONNECTIONS} (or {@code connections}, if
     * more), without BDAT: Angus Mail 2.0.5 dot-stuffs BDAT content as if it were DATA
     * (eclipse-ee4j/angus-mail#209), so a body line starting with "." would arrive with two.
     */
    public SmtpSettings(String host, int port, TlsMode tls, Optional<String> username, Optional<Secret> password,
                        Duration connectTimeout, Duration readTimeout, Duration writeTimeout,
                        String heloName, int connections, double ratePerSecond, MessageTags messageTags) {
        this(host, port, tls, username, password, connectTimeout, readTimeout, writeTimeout, heloName, connections,
                ratePerSecond, messageTags, Math.max(DEFAULT_MAX_CONNECTIONS, connections), false);
    }

    /** Settings for a relay whose messages carry no provider metadata. */
    public SmtpSettings(String host, int port, TlsMode tls, Optional<String> username, Optional<Secret> password,
                        Duration connectTimeout, Duration readTimeout, Duration writeTimeout,
                        String heloName, int connections, double ratePerSecond) {
        this(host, port, tls, username, password, connectTimeout, readTimeout, writeTimeout, heloName, connections,
                ratePerSecond, MessageTags.NONE);
    }

    static final int DEFAULT_CONNECTIONS = 4;
    public static final int MAX_CONNECTIONS = 64;
    /**
     * {@code smtp.max-connections} by default: enough for 100 messages/s at 1 s per message (a relay
     * about 250 ms away, four round trips a message). The pool opens only what the rate needs at the
     * measured time, and a relay's own limit (421 "too many connections") caps it lower.
     */
    public static final int DEFAULT_MAX_CONNECTIONS = 128;
    /** The most {@code smtp.max-connections} may be. */
    public static final int MAX_MAX_CONNECTIONS = 256;
    public static final double MAX_RATE = 100_000;
    private static final Duration MAX_TIMEOUT = Duration.ofMinutes(10);
    private static final Pattern HOST_NAME = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?");

    public SmtpSettings {
        Objects.requireNonNull(host, "smtp.host");
        Objects.requireNonNull(tls, "smtp.tls");
        Objects.requireNonNull(username, "smtp.username");
        Objects.requireNonNull(password, "smtp.password");
        Objects.requireNonNull(heloName, "smtp.helo-name");
        if (host.isBlank() || HeaderValues.check("smtp.host", host).isPresent()
                || host.contains(" ") || host.contains("\t")) {
            throw new IllegalArgumentException("smtp.host must be a host name or address, got '" + host + "'");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("smtp.port must be 1..65535, got " + port);
        }
        if (username.isPresent() != password.isPresent()) {
            throw new IllegalArgumentException("smtp.username and smtp.password must be given together");
        }
        if (username.isPresent() && (username.get().isBlank()
                || HeaderValues.check("smtp.username", username.get()).isPresent() || username.get().contains("\t"))) {
            throw new IllegalArgumentException("smtp.username must be non-blank without control characters");
        }
        requireTimeout("smtp.connect-timeout", connectTimeout);
        requireTimeout("smtp.read-timeout", readTimeout);
        requireTimeout("smtp.write-timeout", writeTimeout);
        if (!HOST_NAME.matcher(heloName).matches()) {
            throw new IllegalArgumentException("smtp.helo-name must be a host name like mail.example.com, got '" + heloName + "'");
        }
        if (connections < 1 || connections > MAX_CONNECTIONS) {
            throw new IllegalArgumentException("smtp.connections must be 1.." + MAX_CONNECTIONS + ", got " + connections);
        }
        requireRate(ratePerSecond);
        Objects.requireNonNull(messageTags, "messageTags");
        if (maxConnections < 1 || maxConnections > MAX_MAX_CONNECTIONS) {
            throw new IllegalArgumentException("smtp.max-connections must be 1.." + MAX_MAX_CONNECTIONS + ", got " + maxConnections);
        }
        if (maxConnections < connections) {
            throw new IllegalArgumentException("smtp.max-connections (" + maxConnections
                    + ") must be at least smtp.connections (" + connections + "), the count a pool starts with");
        }
    }

    /** Settings for a relay without AUTH, 4 connections, no rate limit and 30 s timeouts. */
    public static SmtpSettings of(String host, int port, TlsMode tls, String heloName) {
        Duration thirtySeconds = Duration.ofSeconds(30);
        return new SmtpSettings(host, port, tls, Optional.empty(), Optional.empty(),
                thirtySeconds, thirtySeconds, thirtySeconds, heloName, DEFAULT_CONNECTIONS, 0);
    }

    public SmtpSettings withAuth(String user, Secret secret) {
        return new SmtpSettings(host, port, tls, Optional.of(user), Optional.of(secret), connectTimeout,
                readTimeout, writeTimeout, heloName, connections, ratePerSecond, messageTags, maxConnections, chunking);
    }

    public SmtpSettings withTimeouts(Duration connect, Duration read, Duration write) {
        return new SmtpSettings(host, port, tls, username, password, connect, read, write, heloName,
                connections, ratePerSecond, messageTags, maxConnections, chunking);
    }

    /** Starts with {@code count} connections, and may grow to {@code smtp.max-connections}, raised to {@code count} if below. */
    public SmtpSettings withConnections(int count) {
        return new SmtpSettings(host, port, tls, username, password, connectTimeout, readTimeout,
                writeTimeout, heloName, count, ratePerSecond, messageTags, Math.max(count, maxConnections), chunking);
    }

    /** Starts with {@code start} connections and grows to {@code max} at most. */
    public SmtpSettings withConnections(int start, int max) {
        return new SmtpSettings(host, port, tls, username, password, connectTimeout, readTimeout,
                writeTimeout, heloName, start, ratePerSecond, messageTags, max, chunking);
    }

    /** Whether BDAT is used when the relay offers CHUNKING. */
    public SmtpSettings withChunking(boolean on) {
        return new SmtpSettings(host, port, tls, username, password, connectTimeout, readTimeout,
                writeTimeout, heloName, connections, ratePerSecond, messageTags, maxConnections, on);
    }

    /** The same relay at {@code perSecond} messages per second across all workers (0: no limit). */
    public SmtpSettings withRate(double perSecond) {
        return new SmtpSettings(host, port, tls, username, password, connectTimeout, readTimeout,
                writeTimeout, heloName, connections, perSecond, messageTags, maxConnections, chunking);
    }

    public SmtpSettings withMessageTags(MessageTags tags) {
        return new SmtpSettings(host, port, tls, username, password, connectTimeout, readTimeout, writeTimeout, heloName,
                connections, ratePerSecond, tags, maxConnections, chunking);
    }

    static void requireRate(double ratePerSecond) {
        if (!Double.isFinite(ratePerSecond) || ratePerSecond < 0 || ratePerSecond > MAX_RATE) {
            throw new IllegalArgumentException("smtp.rate must be 0 (unlimited) to " + (long) MAX_RATE
                    + " messages per second, got " + ratePerSecond);
        }
    }

    private static void requireTimeout(String name, Duration timeout) {
        Objects.requireNonNull(timeout, name);
        if (timeout.isNegative() || timeout.isZero() || timeout.compareTo(MAX_TIMEOUT) > 0) {
            throw new IllegalArgumentException(name + " must be between 1 ms and 10 minutes, got " + timeout);
        }
    }

    @Override
    public String toString() {
        return "SmtpSettings[host=" + host + ", port=" + port + ", tls=" + tls + ", username=" + username.orElse("-")
                + ", password=" + (password.isPresent() ? "***" : "-") + ", connectTimeout=" + connectTimeout
                + ", readTimeout=" + readTimeout + ", writeTimeout=" + writeTimeout + ", heloName=" + heloName
                + ", connections=" + connections + ", maxConnections=" + maxConnections + ", chunking=" + chunking
                + ", ratePerSecond=" + ratePerSecond + ", messageTags=" + messageTags + "]";
    }
}
