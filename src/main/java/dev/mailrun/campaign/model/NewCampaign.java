package dev.mailrun.campaign.model;

import dev.mailrun.mail.HeaderValues;
import java.time.Instant;
import java.util.Optional;

/**
 * What an operator gives to create a campaign; validated here so a bad value never reaches the table.
 * Errors name the command-line option the value came from.
 */
public record NewCampaign(String name, String template, String fromAddress, Optional<String> fromName,
                          Optional<String> replyTo, Optional<String> subject, Optional<Instant> startAt,
                          Optional<Double> rateCap, Optional<SendWindows> windows, Optional<Instant> expireAt,
                          CustomHeaders headers) {

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
        // First, so that no later message quotes a value with a line break in it.
        headerProblem(name, fromAddress, fromName, replyTo, subject).ifPresent(problem -> {
            throw new IllegalArgumentException(problem);
        });
        requireText("--name", name, 200);
        requireText("--template", template, 100);
        if (!template.matches("[A-Za-z0-9_-]+")) {
            throw new IllegalArgumentException("template name '" + template + "' may hold only letters, digits, '-' and '_'");
        }
        requireAddress("--from", fromAddress);
        fromName.ifPresent(n -> requireText("--from-name", n, 200));
        replyTo.ifPresent(r -> requireAddress("--reply-to", r));
        subject.ifPresent(s -> requireText("--subject", s, 500));
        rateCap.ifPresent(r -> {
            if (!(r > 0 && r <= 100_000)) {
                throw new IllegalArgumentException("rate must be above 0 and at most 100000 messages per second, got " + r);
            }
        });
        if (windows.isPresent() && windows.get().spec().length() > MAX_WINDOWS_TEXT) {
            throw new IllegalArgumentException("--window: the ranges take more than " + MAX_WINDOWS_TEXT + " characters");
        }
        if (expireAt.isPresent() && startAt.isPresent() && !expireAt.get().isAfter(startAt.get())) {
            throw InvalidFields.of("expireAt", expireAt.get() + " is not after the start " + startAt.get());
        }
        headers.problem().ifPresent(problem -> {
            throw new IllegalArgumentException(problem);
        });
    }

    /** The campaign table keeps the ranges as text in a column this wide. */
    static final int MAX_WINDOWS_TEXT = 1000;

    /**
     * The first of a campaign's header values (name in List-Id, From, Reply-To, Subject) that the
     * sender would refuse, as {@code --option: reason}; empty when all of them can go. The same
     * rule the sender applies to every message, so a campaign cannot be created, or started, only to
     * fail every recipient.
     */
    public static Optional<String> headerProblem(String name, String fromAddress, Optional<String> fromName,
                                                 Optional<String> replyTo, Optional<String> subject) {
        return HeaderValues.check("--name", name)
                .or(() -> HeaderValues.check("--from", fromAddress))
                .or(() -> fromName.flatMap(n -> HeaderValues.check("--from-name", n)))
                .or(() -> replyTo.flatMap(r -> HeaderValues.check("--reply-to", r)))
                .or(() -> subject.flatMap(s -> HeaderValues.check("--subject", s)));
    }

    private static void requireText(String option, String value, int max) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(option + " must not be empty");
        }
        if (value.length() > max) {
            throw new IllegalArgumentException(option + " is longer than " + max + " characters");
        }
    }

    private static void requireAddress(String option, String value) {
        if (EmailAddress.check(value) instanceof EmailAddress.Invalid invalid) {
            throw new IllegalArgumentException(option + " address '" + value + "' is not valid: " + invalid.reason());
        }
    }
}
