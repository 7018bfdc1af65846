package dev.mailrun.mail.bounce;

import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Bounces written for people rather than programs: "Mail delivery failed", "failure notice",
 * "Delivery has failed to these recipients", "Delivery Status Notification (Failure)". The failed
 * address is the first one in the notice that is neither ours nor the reporting server's; the kind
 * comes from the first status or reply code in the notice, else from its wording.
 */
final class TextBounces {

    /** Where the quoted original message starts; nothing after it describes the failure. */
    private static final Pattern ORIGINAL_MARKER = Pattern.compile(
            "(?im)^\\s*(?:-+\\s*)?(?:below this line is a copy of the message|this is a copy of the message"
                    + "|original message headers|-+\\s*original message\\s*-+|original message follows"
                    + "|the original message is attached|undelivered message attached|returned message follows)");
    private static final Pattern MESSAGE_ID = Pattern.compile("(?im)^Message-ID:\\s*(<[^>\\s]+>)");
    private static final Pattern PERMANENT = Pattern.compile(
            "(?i)permanent (error|failure)|user unknown|does not exist|no such user|couldn't be found|address rejected|unknown user|mailbox unavailable");
    private static final Pattern TRANSIENT = Pattern.compile(
            "(?i)temporary (error|failure)|will (keep )?(re)?try|delayed|not yet been delivered|still undelivered|mailbox (is )?full|over quota");
    private static final Set<String> DAEMON_LOCAL_PARTS = Set.of("mailer-daemon", "postmaster", "mail-daemon");

    private TextBounces() {}

    /**
     * @param body        the concatenated text parts of the bounce
     * @param ownAddresses addresses that belong to the bounce itself (its From and To)
     */
    static Optional<BounceReport> read(String body, Set<String> ownAddresses, Optional<String> failedHeader,
                                       ReturnPathTokens tokens, Optional<String> envelopeToken) {
        Matcher marker = ORIGINAL_MARKER.matcher(body);
        String notice = marker.find() ? body.substring(0, marker.start()) : body;
        String original = marker.find(0) ? body.substring(marker.start()) : "";

        Optional<String> recipient = failedHeader.or(() -> failedAddress(notice, ownAddresses, tokens));
        if (recipient.isEmpty()) {
            return Optional.empty();
        }
        Optional<String> status = TextPatterns.enhancedStatus(notice);
        OptionalInt code = TextPatterns.smtpCode(notice);
        Optional<BounceKind> kind = kind(status, code, notice);
        if (kind.isEmpty()) {
            return Optional.empty();
        }
        Matcher id = MESSAGE_ID.matcher(original.isEmpty() ? body : original);
        Optional<String> messageId = id.find() ? Optional.of(id.group(1)) : Optional.empty();
        Optional<String> token = envelopeToken.or(() -> tokens.in(original));
        String fallbackStatus = kind.get() == BounceKind.SOFT ? "4.0.0" : "5.0.0";
        return Optional.of(new BounceReport(kind.get(), recipient, status.orElse(fallbackStatus), code,
                diagnosticLine(notice, status, code), messageId, token));
    }

    private static Optional<String> failedAddress(String notice, Set<String> own, ReturnPathTokens tokens) {
        Matcher m = TextPatterns.ADDRESS.matcher(notice);
        while (m.find()) {
            String candidate = m.group();
            String lower = candidate.toLowerCase(Locale.ROOT);
            String local = lower.substring(0, lower.indexOf('@'));
            if (!own.contains(lower) && !DAEMON_LOCAL_PARTS.contains(local) && tokens.in(candidate).isEmpty()) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    private static Optional<BounceKind> kind(Optional<String> status, OptionalInt code, String notice) {
        char first = status.map(s -> s.charAt(0)).orElse(code.isPresent() ? Integer.toString(code.getAsInt()).charAt(0) : ' ');
        if (first == '5') {
            return Optional.of(PermanentFailures.kind(status.orElse(""), notice));
        }
        if (first == '4') {
            return Optional.of(BounceKind.SOFT);
        }
        if (PERMANENT.matcher(notice).find()) {
            return Optional.of(PermanentFailures.kind("", notice));
        }
        if (TRANSIENT.matcher(notice).find()) {
            return Optional.of(BounceKind.SOFT);
        }
        return Optional.empty();
    }

    /** The line that carries the code, which is where servers put their explanation. */
    private static String diagnosticLine(String notice, Optional<String> status, OptionalInt code) {
        String needle = code.isPresent() ? Integer.toString(code.getAsInt()) : status.orElse(null);
        if (needle != null) {
            for (String line : notice.split("\r?\n")) {
                if (line.contains(needle)) {
                    return line.strip().replaceAll("\\s+", " ");
                }
            }
        }
        for (Pattern wording : new Pattern[] {PERMANENT, TRANSIENT}) {
            Matcher m = wording.matcher(notice);
            if (m.find()) {
                return m.group();
            }
        }
        return "";
    }
}
