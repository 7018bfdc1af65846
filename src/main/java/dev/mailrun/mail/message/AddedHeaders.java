package dev.mailrun.mail.message;

import dev.mailrun.mail.HeaderValues;
import dev.mailrun.mail.feedback.MessageTags;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The rule for the headers an operator adds to every message of a campaign ({@code campaign create
 * --header}), checked when the campaign is created and again when a run writes them, and how they
 * are written.
 *
 * <p>A name is an RFC 5322 field name (printable ASCII, 33–126, without ':'), at most
 * {@value #MAX_NAME} characters, given once (names are case-insensitive). A name is refused when
 * mailrun writes that header itself (a second one would contradict it, and a DKIM signature would
 * cover only one of the two), or when the header speaks for the sender, the recipients, the MIME
 * structure, the route or an authentication result — a campaign must not be able to forge those.
 * A value goes through {@link HeaderValues} (no line break or other control character), is not
 * blank, and with its name and ": " fits one 998-character line, so that it never has to be cut.
 */
public final class AddedHeaders {

    public static final int MAX_HEADERS = 20;
    /** With ": " and a short value the name still fits a 78-character line. */
    public static final int MAX_NAME = 76;
    public static final int MAX_LINE = WireBuffer.MAX_LINE;

    /** Written by the composer, the DKIM signer or a relay; lower case. */
    private static final Set<String> MAILRUNS = Set.of("date", "from", "reply-to", "to", "message-id", "subject",
            "mime-version", "list-id", "list-unsubscribe", "list-unsubscribe-post", "dkim-signature",
            CampaignComposer.TEST_SEND_HEADER.toLowerCase(Locale.ROOT));
    /** Sender, recipients, route and authentication: not a campaign's to claim. */
    private static final Set<String> FORGING = Set.of("sender", "cc", "bcc", "return-path", "received", "received-spf",
            "authentication-results", "domainkey-signature", "content-length");
    /** Whole families: MIME structure (Content-*), resent identities, ARC seals, mailrun's own X-Mailrun-*. */
    private static final List<String> PREFIXES = List.of("content-", "resent-", "arc-", "x-mailrun-");

    private AddedHeaders() {
    }

    /**
     * Why headers cannot be added: about one of them ({@code header}, its name as given, made
     * printable) or about them all (their number, an empty name).
     */
    public record Refusal(Optional<String> header, String reason) {

        /** One line, the header's name first when there is one: {@code X-Tag: contains …}. */
        public String line() {
            return header.map(h -> h + ": " + reason).orElse(reason);
        }

        /** As a message's refusal says it: {@code header X-Tag: contains …}, {@code headers: at most 20 …}. */
        public String sentence() {
            return header.map(h -> "header " + h + ": " + reason).orElse("headers: " + reason);
        }
    }

    /** Why these headers cannot be added, the first problem found; empty when they all can. */
    public static Optional<Refusal> problem(List<Map.Entry<String, String>> headers) {
        if (headers.size() > MAX_HEADERS) {
            return Optional.of(new Refusal(Optional.empty(), "at most " + MAX_HEADERS + " headers, got " + headers.size()));
        }
        Set<String> seen = new HashSet<>();
        for (Map.Entry<String, String> h : headers) {
            Optional<Refusal> problem = problem(h.getKey(), h.getValue());
            if (problem.isPresent()) {
                return problem;
            }
            if (!seen.add(h.getKey().toLowerCase(Locale.ROOT))) {
                return refused(shown(h.getKey()), "given twice (header names are case-insensitive)");
            }
        }
        return Optional.empty();
    }

    private static Optional<Refusal> problem(String name, String value) {
        if (name == null || name.isEmpty()) {
            return Optional.of(new Refusal(Optional.empty(), "a header's name is empty"));
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 33 || c > 126 || c == ':') {
                return refused(shown(name), "a header name is printable ASCII without spaces or ':' (RFC 5322), found "
                        + (c == ':' ? "':'" : c == ' ' ? "a space" : String.format(Locale.ROOT, "U+%04X", (int) c)));
            }
        }
        if (name.length() > MAX_NAME) {
            return refused(shown(name), "a header name is at most " + MAX_NAME + " characters");
        }
        String lower = name.toLowerCase(Locale.ROOT);
        if (MAILRUNS.contains(lower) || MessageTags.writes(name)) {
            return refused(name, "mailrun writes this header itself; it cannot be added");
        }
        if (FORGING.contains(lower) || PREFIXES.stream().anyMatch(lower::startsWith)) {
            return refused(name, "not allowed: it would speak for the message's sender, recipients, structure, route "
                    + "or authentication");
        }
        Optional<String> control = HeaderValues.problem(value);
        if (control.isPresent()) {
            return refused(name, control.get());
        }
        if (value.isBlank()) {
            return refused(name, "the value must not be empty");
        }
        int line = name.length() + 2 + value.strip().length();
        if (line > MAX_LINE) {
            return refused(name, "name, ': ' and value take " + line + " characters; a header line holds at most " + MAX_LINE);
        }
        return Optional.empty();
    }

    private static Optional<Refusal> refused(String header, String reason) {
        return Optional.of(new Refusal(Optional.of(header), reason));
    }

    /**
     * The header lines, each folded at white space as the composer folds Subject: printable ASCII as
     * given (a structured value such as Feedback-ID's or a URL stays intact), anything else as RFC
     * 2047 encoded words, which only unstructured headers (X-…) may carry.
     */
    static void write(WireBuffer out, List<Map.Entry<String, String>> headers) {
        for (Map.Entry<String, String> h : headers) {
            String value = h.getValue().strip();
            String text = isPlain(value) ? value : HeaderText.encode(value);
            out.header(h.getKey(), HeaderText.fold(h.getKey().length() + 2, text));
        }
    }

    private static boolean isPlain(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < 0x20 && c != '\t') || c > 0x7e) {
                return false;
            }
        }
        return true;
    }

    /** A name as an error message may quote it: printable, and cut. */
    private static String shown(String name) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < name.length() && i < 80; i++) {
            char c = name.charAt(i);
            s.append(c >= 32 && c <= 126 ? c : '?');
        }
        return (name.length() > 80 ? s.append('…') : s).toString();
    }
}
