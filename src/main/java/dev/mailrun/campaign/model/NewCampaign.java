package dev.mailrun.campaign.model;

import dev.mailrun.mail.HeaderValues;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What an operator gives to create a campaign; validated here so a bad value never reaches the table.
 * Every problem is reported at once ({@link InvalidFields}), each with the domain's name of its field
 * (name, template, from, fromName, replyTo, subject, rate, windows, expireAt, headers), which each
 * interface translates into its own (a command-line option, a JSON field, a form field). Its web version
 * ({@code webVersion}) empty: the campaign follows webversion.personal.
 */
public record NewCampaign(String name, String template, String fromAddress, Optional<String> fromName,
                          Optional<String> replyTo, Optional<String> subject, Optional<Instant> startAt,
                          Optional<Double> rateCap, Optional<SendWindows> windows, Optional<Instant> expireAt,
                          CustomHeaders headers, Optional<WebVersionMode> webVersion) {

    /** Following webversion.personal for its web version pages. */
    public NewCampaign(String name, String template, String fromAddress, Optional<String> fromName,
                       Optional<String> replyTo, Optional<String> subject, Optional<Instant> startAt,
                       Optional<Double> rateCap, Optional<SendWindows> windows, Optional<Instant> expireAt,
                       CustomHeaders headers) {
        this(name, template, fromAddress, fromName, replyTo, subject, startAt, rateCap, windows, expireAt, headers, Optional.empty());
    }

    /** Without headers of the operator's own. */
    public NewCampaign(String name, String template, String fromAddress, Optional<String> fromName,
                       Optional<String> replyTo, Optional<String> subject, Optional<Instant> startAt,
                       Optional<Double> rateCap, Optional<SendWindows> windows, Optional<Instant> expireAt) {
        this(name, template, fromAddress, fromName, replyTo, subject, startAt, rateCap, windows, expireAt, CustomHeaders.NONE);
    }

    /** A campaign that may send any time and never expires. */
    public NewCampaign(String name, String template, String fromAddress, Optional<String> fromName,
                       Optional<String> replyTo, Optional<String> subject, Optional<Instant> startAt,
                       Optional<Double> rateCap) {
        this(name, template, fromAddress, fromName, replyTo, subject, startAt, rateCap, Optional.empty(), Optional.empty());
    }

    public NewCampaign {
        List<InvalidFields.Problem> problems = problems(name, template, fromAddress, fromName, replyTo, subject, rateCap);
        if (windows.isPresent() && windows.get().spec().length() > MAX_WINDOWS_TEXT) {
            problems.add(new InvalidFields.Problem("windows", "the ranges take more than " + MAX_WINDOWS_TEXT + " characters"));
        }
        if (expireAt.isPresent() && startAt.isPresent() && !expireAt.get().isAfter(startAt.get())) {
            problems.add(new InvalidFields.Problem("expireAt", expireAt.get() + " must be after the start (" + startAt.get() + ")"));
        }
        headers.problem().ifPresent(problems::add);
        if (!problems.isEmpty()) {
            throw new InvalidFields(problems);
        }
    }

    /** Every problem of the values given as text, each with its field; a value with a line break is checked for that alone. */
    private static List<InvalidFields.Problem> problems(String name, String template, String fromAddress, Optional<String> fromName,
                                                        Optional<String> replyTo, Optional<String> subject, Optional<Double> rateCap) {
        List<InvalidFields.Problem> problems = new ArrayList<>();
        // First, so that no later message quotes a value with a line break in it.
        header(problems, "name", Optional.ofNullable(name));
        header(problems, "from", Optional.ofNullable(fromAddress));
        header(problems, "fromName", fromName);
        header(problems, "replyTo", replyTo);
        header(problems, "subject", subject);
        Set<String> broken = new HashSet<>(problems.stream().map(InvalidFields.Problem::field).toList());
        if (!broken.contains("name")) {
            requireText(problems, "name", name, 200);
        }
        if (requireText(problems, "template", template, 100) && !template.matches("[A-Za-z0-9_-]+")) {
            problems.add(new InvalidFields.Problem("template", "name '" + template + "' may hold only letters, digits, '-' and '_'"));
        }
        if (!broken.contains("from")) {
            requireAddress(problems, "from", fromAddress);
        }
        fromName.filter(n -> !broken.contains("fromName")).ifPresent(n -> requireText(problems, "fromName", n, 200));
        replyTo.filter(r -> !broken.contains("replyTo")).ifPresent(r -> requireAddress(problems, "replyTo", r));
        subject.filter(t -> !broken.contains("subject")).ifPresent(t -> requireText(problems, "subject", t, 500));
        rateCap.filter(r -> !(r > 0 && r <= 100_000)).ifPresent(r -> problems.add(new InvalidFields.Problem("rate",
                "must be above 0 and at most 100000 messages per second, got " + r)));
        return problems;
    }

    private static void header(List<InvalidFields.Problem> problems, String field, Optional<String> value) {
        value.flatMap(HeaderValues::problem).ifPresent(p -> problems.add(new InvalidFields.Problem(field, p)));
    }

    /** The campaign table keeps the ranges as text in a column this wide. */
    static final int MAX_WINDOWS_TEXT = 1000;

    /**
     * The first of a campaign's header values (name in List-Id, From, Reply-To, Subject) that the
     * sender would refuse, as {@code field: reason}; empty when all of them can go. The same
     * rule the sender applies to every message, so a campaign cannot be created, or started, only to
     * fail every recipient.
     */
    public static Optional<String> headerProblem(String name, String fromAddress, Optional<String> fromName,
                                                 Optional<String> replyTo, Optional<String> subject) {
        return HeaderValues.check("name", name)
                .or(() -> HeaderValues.check("from", fromAddress))
                .or(() -> fromName.flatMap(n -> HeaderValues.check("from name", n)))
                .or(() -> replyTo.flatMap(r -> HeaderValues.check("reply-to", r)))
                .or(() -> subject.flatMap(s -> HeaderValues.check("subject", s)));
    }

    private static boolean requireText(List<InvalidFields.Problem> problems, String field, String value, int max) {
        if (value == null || value.isBlank()) {
            problems.add(new InvalidFields.Problem(field, "must not be empty"));
            return false;
        }
        if (value.length() > max) {
            problems.add(new InvalidFields.Problem(field, "is longer than " + max + " characters"));
            return false;
        }
        return true;
    }

    private static void requireAddress(List<InvalidFields.Problem> problems, String field, String value) {
        if (value == null || value.isBlank()) {
            problems.add(new InvalidFields.Problem(field, "must not be empty"));
        } else if (EmailAddress.check(value) instanceof EmailAddress.Invalid invalid) {
            problems.add(new InvalidFields.Problem(field, "address '" + value + "' is not valid: " + invalid.reason()));
        }
    }
}
