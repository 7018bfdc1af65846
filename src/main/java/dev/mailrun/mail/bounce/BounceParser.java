package dev.mailrun.mail.bounce;

import jakarta.mail.Address;
import jakarta.mail.MessagingException;
import jakarta.mail.Part;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.InternetHeaders;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads what a message in the bounce mailbox says, in this order:
 * <ol>
 *   <li>multipart/report; report-type=feedback-report (RFC 5965): a complaint;</li>
 *   <li>multipart/report; report-type=delivery-status (RFC 3464): one report per failed or delayed
 *       recipient;</li>
 *   <li>a message from a mail server (MAILER-DAEMON, postmaster, empty return path) or with a bounce
 *       subject: the failed address and code read from its text;</li>
 *   <li>anything else, auto-replies included: one UNRECOGNISED report.</li>
 * </ol>
 * Never throws for what a message contains: an unreadable message is UNRECOGNISED with the reason.
 */
public final class BounceParser {

    static final String DEFAULT_RETURN_PATH_PREFIX = "bounces";

    private static final Pattern BOUNCE_SUBJECT = Pattern.compile("(?i)undeliver|delivery (status notification|has failed"
            + "|failure|failed|problem|notification)|mail delivery|failure notice|returned mail|non[- ]?delivery"
            + "|could not be delivered|delivery report|warning: could not send");
    private static final Pattern AUTO_REPLY_SUBJECT = Pattern.compile(
            "(?i)^\\s*(automatic reply|auto[- ]?reply|autoreply|out of (the )?office|vacation|abwesen|away from)");
    private static final Set<String> DAEMON_LOCAL_PARTS = Set.of("mailer-daemon", "postmaster", "mail-daemon");

    private final ReturnPathTokens tokens;

    public BounceParser() {
        this(DEFAULT_RETURN_PATH_PREFIX);
    }

    /** @param returnPathPrefix the local-part prefix of our return paths, {@code bounces} in {@code bounces+TOKEN@domain} */
    public BounceParser(String returnPathPrefix) {
        if (returnPathPrefix == null || !returnPathPrefix.matches("[A-Za-z0-9._-]{1,32}")) {
            throw new IllegalArgumentException("return-path prefix must be 1-32 letters, digits, '.', '_' or '-': " + returnPathPrefix);
        }
        this.tokens = new ReturnPathTokens(returnPathPrefix);
    }

    /** One report per recipient the message is about; never empty. */
    public List<BounceReport> parse(MimeMessage message) {
        try {
            return read(message);
        } catch (MessagingException | IOException | RuntimeException e) {
            return List.of(BounceReport.unrecognised("unreadable message: " + e.getClass().getSimpleName()
                    + ": " + e.getMessage(), Optional.empty(), Optional.empty()));
        }
    }

    private List<BounceReport> read(MimeMessage message) throws MessagingException, IOException {
        Optional<String> envelopeToken = tokens.inEnvelopeHeaders(message);
        String type = MimeParts.baseType(message);
        String reportType = MimeParts.contentType(message).map(ct -> ct.getParameter("report-type")).orElse("")
                .toLowerCase(Locale.ROOT);
        if (type.equals("multipart/report") || type.equals("multipart/mixed")) {
            List<Part> parts = MimeParts.flatten(message);
            Optional<InternetHeaders> original = Originals.find(parts);
            Optional<String> originalId = Originals.messageId(Originals.header(original, "Message-ID"));
            Optional<String> originalToken = Originals.header(original, "Return-Path").flatMap(tokens::in);
            Optional<Part> feedback = first(parts, "message/feedback-report");
            if (feedback.isPresent() && (reportType.isEmpty() || reportType.equals("feedback-report"))) {
                String fields = MimeParts.text(feedback.get());
                Optional<String> token = tokens.in(fields).or(() -> originalToken).or(() -> envelopeToken);
                return List.of(FeedbackReports.read(fields, Originals.header(original, "To"), originalId, token));
            }
            Optional<Part> status = first(parts, "message/delivery-status");
            if (status.isEmpty()) {
                status = first(parts, "message/global-delivery-status");
            }
            if (status.isPresent()) {
                Optional<String> token = envelopeToken.or(() -> originalToken);
                List<BounceReport> reports = DeliveryStatusReports.read(MimeParts.text(status.get()), originalId, token);
                return reports.isEmpty()
                        ? List.of(BounceReport.unrecognised("delivery report without failed or delayed recipients", originalId, token))
                        : reports;
            }
        }
        if (isAutoReply(message)) {
            return List.of(BounceReport.unrecognised("auto-reply, not a bounce", Optional.empty(), envelopeToken));
        }
        if (fromMailServer(message) || matches(BOUNCE_SUBJECT, message.getSubject())) {
            Optional<BounceReport> text = TextBounces.read(plainText(message), ownAddresses(message),
                    failedRecipientsHeader(message), tokens, envelopeToken);
            if (text.isPresent()) {
                return List.of(text.get());
            }
            return List.of(BounceReport.unrecognised("bounce-like message with no failed address or code",
                    Optional.empty(), envelopeToken));
        }
        return List.of(BounceReport.unrecognised("not a bounce", Optional.empty(), envelopeToken));
    }

    private static Optional<Part> first(List<Part> parts, String baseType) throws MessagingException {
        for (Part part : parts) {
            if (MimeParts.baseType(part).equals(baseType)) {
                return Optional.of(part);
            }
        }
        return Optional.empty();
    }

    private static boolean isAutoReply(MimeMessage message) throws MessagingException {
        return matches(AUTO_REPLY_SUBJECT, message.getSubject()) || message.getHeader("X-Autoreply") != null
                || message.getHeader("X-Autorespond") != null
                || "auto_reply".equalsIgnoreCase(Optional.ofNullable(message.getHeader("Precedence", null)).orElse("").strip());
    }

    private static boolean fromMailServer(MimeMessage message) throws MessagingException {
        String returnPath = message.getHeader("Return-Path", null);
        if (returnPath != null && returnPath.replaceAll("\\s", "").equals("<>")) {
            return true;
        }
        for (String address : addresses(message.getHeader("From", ","))) {
            String local = address.substring(0, address.indexOf('@'));
            if (DAEMON_LOCAL_PARTS.contains(local)) {
                return true;
            }
        }
        return false;
    }

    private static Set<String> ownAddresses(MimeMessage message) throws MessagingException {
        Set<String> own = new HashSet<>(addresses(message.getHeader("From", ",")));
        own.addAll(addresses(message.getHeader("To", ",")));
        return own;
    }

    private static Optional<String> failedRecipientsHeader(MimeMessage message) throws MessagingException {
        List<String> failed = addresses(message.getHeader("X-Failed-Recipients", ","));
        return failed.isEmpty() ? Optional.empty() : Optional.of(failed.get(0));
    }

    /** Lower-cased addresses of a header; a header that does not parse gives none. */
    private static List<String> addresses(String header) {
        List<String> result = new ArrayList<>();
        if (header == null) {
            return result;
        }
        try {
            for (Address a : InternetAddress.parseHeader(header, false)) {
                if (a instanceof InternetAddress ia && ia.getAddress() != null && ia.getAddress().contains("@")) {
                    result.add(ia.getAddress().toLowerCase(Locale.ROOT));
                }
            }
        } catch (AddressException e) {
            // a mangled header tells us nothing either way
        }
        return result;
    }

    private static String plainText(MimeMessage message) throws MessagingException, IOException {
        StringBuilder sb = new StringBuilder();
        for (Part part : MimeParts.flatten(message)) {
            String type = MimeParts.baseType(part);
            if (type.equals("text/plain") || type.equals("text/rfc822-headers") || type.equals("message/rfc822")) {
                sb.append(MimeParts.text(part)).append('\n');
            }
        }
        return sb.toString();
    }

    private static boolean matches(Pattern pattern, String text) {
        return text != null && pattern.matcher(text).find();
    }
}
