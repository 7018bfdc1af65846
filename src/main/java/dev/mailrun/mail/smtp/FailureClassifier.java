package dev.mailrun.mail.smtp;

import dev.mailrun.mail.AddressStatus;
import jakarta.mail.AuthenticationFailedException;
import jakarta.mail.MessagingException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;
import org.eclipse.angus.mail.smtp.SMTPAddressFailedException;
import org.eclipse.angus.mail.smtp.SMTPSendFailedException;
import org.eclipse.angus.mail.smtp.SMTPSenderFailedException;
import org.eclipse.angus.mail.util.MailConnectException;

/**
 * Turns a sending exception into a {@link Failure}, from the SMTP reply code found anywhere in
 * the exception chain (causes and {@code getNextException()}), in this order:
 * <ol>
 *   <li>authentication failures (535, 530, 534) and TLS failures (STARTTLS required but not
 *       offered, handshake errors) are FATAL: every further message would fail the same way;</li>
 *   <li>a "too fast" reply ({@link TooFast}: 421/450/451/454 with 4.7.x or a throttling text)
 *       is THROTTLED: the sender slows down and the recipient is tried again;</li>
 *   <li>421 and connection loss (EOF, reset, "Not connected") are TRANSIENT and worth one retry on
 *       a new connection;</li>
 *   <li>timeouts and refused connections are TRANSIENT without a retry: the relay is slow or down;</li>
 *   <li>other 4xx are TRANSIENT, with any "try again in N minutes" hint; 5xx are PERMANENT, a hard
 *       bounce only when it is about the address: enhanced code 5.1.x (not 5.1.7 / 5.1.8, the
 *       sender's address), 5.2.1 (mailbox disabled) or 5.4.4 (unable to route), or, without an
 *       enhanced code, a 550/551/553 that says the user does not exist — the same rule, and the
 *       same wording ({@link AddressStatus#saysNoSuchAddress}), as the bounce mailbox (5.7.x
 *       policy refusals never suppress an address).</li>
 * </ol>
 */
final class FailureClassifier {

    private static final Pattern REPLY_CODE_PREFIX = Pattern.compile("^[2-5]\\d\\d[ -]");
    private static final Pattern ENHANCED = Pattern.compile("\\b([245])\\.(\\d{1,3})\\.(\\d{1,3})\\b");
    private static final Pattern RETRY_HINT = Pattern.compile(
            "(?:try|retry|again|wait|after)\\D{0,20}?(\\d{1,6})\\s*"
                    + "(seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h)\\b");

    private FailureClassifier() {
    }

    static Failure classify(Exception exception) {
        List<Throwable> chain = chain(exception);
        String text = describe(exception);
        int code = replyCode(chain);

        if (chain.stream().anyMatch(t -> t instanceof AuthenticationFailedException) || code == 535 || code == 534
                || code == 530) {
            return fatal("authentication failed (check smtp.username/smtp.password and the TLS mode): " + text);
        }
        if (chain.stream().anyMatch(t -> t instanceof SSLException)) {
            return fatal("TLS failed (check smtp.tls and the relay's certificate): " + text);
        }
        if (chain.stream().anyMatch(FailureClassifier::isStartTlsMissing)) {
            return fatal("the relay does not offer STARTTLS but smtp.tls is STARTTLS_REQUIRED; nothing was sent in plain text");
        }
        Optional<TooFast.Scope> tooFast = TooFast.of(code, text);
        if (tooFast.isPresent()) {
            // Not retried on a new connection: the same message at once would only be too fast again.
            return new Failure(Failure.Kind.THROTTLED, code, text, retryHint(text), false, code == 421, false, tooFast);
        }
        if (code == 421) {
            return new Failure(Failure.Kind.TRANSIENT, code, text, retryHint(text), false, true, true);
        }
        if (code >= 400 && code < 500) {
            return new Failure(Failure.Kind.TRANSIENT, code, text, retryHint(text), false, false, false);
        }
        if (code >= 500 && code < 600) {
            return new Failure(Failure.Kind.PERMANENT, code, text, Optional.empty(), isHardBounce(code, text), false, false);
        }
        if (timedOut(exception)) {
            return new Failure(Failure.Kind.TRANSIENT, 0, "timed out: " + text, Optional.empty(), false, true, false);
        }
        if (chain.stream().anyMatch(t -> t instanceof MailConnectException || t instanceof ConnectException
                || t instanceof UnknownHostException)) {
            return new Failure(Failure.Kind.TRANSIENT, 0, connectFailure(chain, text), Optional.empty(), false, true, false);
        }
        if (chain.stream().anyMatch(FailureClassifier::isConnectionLoss)) {
            return new Failure(Failure.Kind.TRANSIENT, 0, "connection lost: " + text, Optional.empty(), false, true, true);
        }
        // Unknown shape: assume the worst about the connection but not about the message.
        return new Failure(Failure.Kind.TRANSIENT, 0, text, Optional.empty(), false, true, false);
    }

    /**
     * Why no connection could be opened, in an operator's words: a host name that does not resolve
     * says so (the library's own text only says it could not connect to it); otherwise the host and
     * port with the socket's reason ("Connection refused").
     */
    private static String connectFailure(List<Throwable> chain, String text) {
        Optional<MailConnectException> mce = chain.stream().filter(MailConnectException.class::isInstance)
                .map(MailConnectException.class::cast).findFirst();
        Optional<UnknownHostException> unknown = chain.stream().filter(UnknownHostException.class::isInstance)
                .map(UnknownHostException.class::cast).findFirst();
        if (unknown.isPresent()) {
            String host = mce.map(MailConnectException::getHost).or(() -> Optional.ofNullable(unknown.get().getMessage()))
                    .orElse("of the relay");
            return "the host name " + host + " does not resolve (DNS lookup failed)";
        }
        if (mce.isPresent()) {
            String why = chain.stream().filter(t -> !(t instanceof MessagingException) && t.getMessage() != null)
                    .map(t -> t.getMessage().strip()).findFirst().orElse(text);
            return "cannot connect to " + mce.get().getHost() + ":" + mce.get().getPort() + ": " + why;
        }
        return "cannot connect: " + text;
    }

    /** Parses hints like "try again in 5 minutes" or "retry after 30s". */
    static Optional<Duration> retryHint(String text) {
        Matcher matcher = RETRY_HINT.matcher(text.toLowerCase(Locale.ROOT));
        if (!matcher.find()) {
            return Optional.empty();
        }
        long amount = Long.parseLong(matcher.group(1));
        String unit = matcher.group(2);
        if (unit.startsWith("h")) {
            return Optional.of(Duration.ofHours(amount));
        }
        if (unit.startsWith("m")) {
            return Optional.of(Duration.ofMinutes(amount));
        }
        return Optional.of(Duration.ofSeconds(amount));
    }

    private static boolean isHardBounce(int code, String text) {
        Matcher enhanced = ENHANCED.matcher(text);
        if (enhanced.find()) {
            return AddressStatus.permanentlyBad(enhanced.group(1) + "." + enhanced.group(2) + "." + enhanced.group(3));
        }
        return (code == 550 || code == 551 || code == 553) && AddressStatus.saysNoSuchAddress(text);
    }

    private static Failure fatal(String reason) {
        return new Failure(Failure.Kind.FATAL, 0, reason, Optional.empty(), false, true, false);
    }

    private static boolean isStartTlsMissing(Throwable t) {
        String message = String.valueOf(t.getMessage());
        return t instanceof MessagingException && message.contains("STARTTLS") && message.contains("required");
    }

    private static boolean isConnectionLoss(Throwable t) {
        String message = String.valueOf(t.getMessage());
        return t instanceof IOException || message.contains("Not connected") || message.contains("EOF")
                || message.contains("Can't send command");
    }

    /** The most specific reply code: from the address or send failure deepest in the chain. */
    private static int replyCode(List<Throwable> chain) {
        int code = -1;
        for (Throwable t : chain) {
            int candidate = -1;
            if (t instanceof SMTPAddressFailedException e) {
                candidate = e.getReturnCode();
            } else if (t instanceof SMTPSenderFailedException e) {
                candidate = e.getReturnCode();
            } else if (t instanceof SMTPSendFailedException e) {
                candidate = e.getReturnCode();
            }
            if (candidate >= 400 && candidate < 600) {
                code = candidate;
            }
        }
        return code;
    }

    private static String describe(Exception exception) {
        List<Throwable> chain = chain(exception);
        for (int i = chain.size() - 1; i >= 0; i--) {
            Throwable t = chain.get(i);
            if ((t instanceof SMTPAddressFailedException || t instanceof SMTPSenderFailedException
                    || t instanceof SMTPSendFailedException) && t.getMessage() != null) {
                // The reply code is reported separately; the text is what follows it.
                return REPLY_CODE_PREFIX.matcher(t.getMessage().strip()).replaceFirst("");
            }
        }
        StringBuilder text = new StringBuilder();
        for (Throwable t : chain) {
            if (t.getMessage() != null && text.indexOf(t.getMessage().strip()) < 0) {
                text.append(text.length() == 0 ? "" : "; ").append(t.getMessage().strip());
            }
        }
        return text.length() == 0 ? exception.getClass().getSimpleName() : text.toString();
    }

    /** True when a socket timeout is anywhere in the exception's chain. */
    static boolean timedOut(Throwable exception) {
        return chain(exception).stream().anyMatch(t -> t instanceof SocketTimeoutException);
    }

    /** The exception, its causes and next exceptions, each once, in discovery order. */
    private static List<Throwable> chain(Throwable root) {
        List<Throwable> chain = new ArrayList<>();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Throwable> pending = new ArrayList<>(List.of(root));
        while (!pending.isEmpty() && chain.size() < 32) {
            Throwable t = pending.remove(0);
            if (t == null || !seen.add(t)) {
                continue;
            }
            chain.add(t);
            pending.add(t.getCause());
            if (t instanceof MessagingException m) {
                pending.add(m.getNextException());
            }
        }
        return chain;
    }
}
