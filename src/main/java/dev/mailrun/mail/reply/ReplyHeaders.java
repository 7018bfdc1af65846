package dev.mailrun.mail.reply;

import jakarta.mail.MessagingException;
import jakarta.mail.Part;
import jakarta.mail.internet.ContentType;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.ParseException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a message in the replies mailbox says of itself: whether a person wrote it, and which
 * messages it answers. Only the headers are read, never the body.
 *
 * <p>Not a person's reply, whatever it references (docs/MAIL.md, "Replies"):
 * <ul>
 *   <li>delivery and feedback reports — {@code multipart/report}, a null return path, mail from
 *       MAILER-DAEMON or postmaster, {@code X-Failed-Recipients}: bounces belong to the bounce mailbox;</li>
 *   <li>automatic answers (RFC 3834) — {@code Auto-Submitted} other than {@code no}; the
 *       {@code X-Autoreply}, {@code X-Autorespond} and {@code X-Auto-Response} headers of common
 *       responders; {@code Precedence: auto_reply, bulk, junk or list}; a subject that starts like an
 *       out-of-office notice ({@code Auto:}, {@code Automatic reply}, {@code Autoreply},
 *       {@code Out of office}, {@code Abwesenheitsnotiz}, {@code Réponse automatique}).</li>
 * </ul>
 */
public final class ReplyHeaders {

    /** What kind of message it is. */
    public enum Kind {
        /** Written by a person, as far as the headers tell. */
        PERSON,
        /** An automatic answer: out of office, vacation, a responder. */
        AUTOMATIC,
        /** A delivery or feedback report: the bounce mailbox's, not a reply. */
        REPORT
    }

    /** Most ids read from one message's In-Reply-To and References: a longer thread adds nothing. */
    static final int MAX_IDS = 50;

    private static final Pattern BRACKETED = Pattern.compile("<[^<>\\s]{1,250}>");
    private static final Pattern AUTO_SUBJECT = Pattern.compile(
            "(?iu)^\\s*(auto:|automatic reply|auto[- ]?reply|autoresponse|out of (the )?office|abwesenheitsnotiz"
                    + "|r[ée]ponse automatique)");
    private static final List<String> RESPONDER_HEADERS = List.of("X-Autoreply", "X-Autorespond", "X-Auto-Response",
            "X-Autoresponder");
    private static final List<String> AUTOMATIC_PRECEDENCE = List.of("auto_reply", "bulk", "junk", "list");
    private static final List<String> REPORTING_SENDERS = List.of("mailer-daemon", "postmaster");

    private ReplyHeaders() {
    }

    public static Kind kind(MimeMessage message) throws MessagingException {
        if (isReport(message)) {
            return Kind.REPORT;
        }
        String auto = first(message, "Auto-Submitted");
        if (auto != null && !auto.strip().toLowerCase(Locale.ROOT).startsWith("no")) {
            return Kind.AUTOMATIC;
        }
        for (String name : RESPONDER_HEADERS) {
            if (first(message, name) != null) {
                return Kind.AUTOMATIC;
            }
        }
        String precedence = first(message, "Precedence");
        if (precedence != null && AUTOMATIC_PRECEDENCE.contains(precedence.strip().toLowerCase(Locale.ROOT))) {
            return Kind.AUTOMATIC;
        }
        String subject = message.getSubject();
        if (subject != null && AUTO_SUBJECT.matcher(subject).find()) {
            return Kind.AUTOMATIC;
        }
        return Kind.PERSON;
    }

    /**
     * The Message-IDs the message answers, with angle brackets: In-Reply-To's first, then References'
     * from the last (the direct parent) back; at most {@value #MAX_IDS}, no repeats.
     */
    public static List<String> answered(Part message) throws MessagingException {
        List<String> ids = new ArrayList<>();
        add(ids, message.getHeader("In-Reply-To"), false);
        add(ids, message.getHeader("References"), true);
        return ids;
    }

    /** When it was written: its Date, unless missing or after {@code now} (a wrong clock), then {@code now}. */
    public static Instant writtenAt(MimeMessage message, Instant now) {
        try {
            Optional<Instant> date = Optional.ofNullable(message.getSentDate()).map(java.util.Date::toInstant);
            return date.filter(d -> !d.isAfter(now)).orElse(now);
        } catch (MessagingException e) {
            return now;
        }
    }

    private static boolean isReport(MimeMessage message) throws MessagingException {
        if (first(message, "X-Failed-Recipients") != null) {
            return true;
        }
        String returnPath = first(message, "Return-Path");
        if (returnPath != null && returnPath.replaceAll("\\s", "").equals("<>")) {
            return true;
        }
        try {
            String type = message.getContentType();
            if (type != null && new ContentType(type).match("multipart/report")) {
                return true;
            }
        } catch (ParseException e) {
            // An unreadable Content-Type says nothing either way.
        }
        String from = first(message, "From");
        if (from != null) {
            try {
                for (InternetAddress a : InternetAddress.parseHeader(from, false)) {
                    String address = a.getAddress() == null ? "" : a.getAddress().toLowerCase(Locale.ROOT);
                    int at = address.indexOf('@');
                    if (REPORTING_SENDERS.contains(at < 0 ? address : address.substring(0, at))) {
                        return true;
                    }
                }
            } catch (jakarta.mail.internet.AddressException e) {
                // Not a sender of reports as far as can be told.
            }
        }
        return false;
    }

    private static void add(List<String> ids, String[] values, boolean lastFirst) {
        if (values == null) {
            return;
        }
        List<String> found = new ArrayList<>();
        for (String value : values) {
            Matcher m = BRACKETED.matcher(value);
            while (m.find()) {
                found.add(m.group());
            }
        }
        for (int i = 0; i < found.size() && ids.size() < MAX_IDS; i++) {
            String id = found.get(lastFirst ? found.size() - 1 - i : i);
            if (!ids.contains(id)) {
                ids.add(id);
            }
        }
    }

    private static String first(Part message, String name) throws MessagingException {
        String[] values = message.getHeader(name);
        return values == null || values.length == 0 ? null : values[0];
    }
}
