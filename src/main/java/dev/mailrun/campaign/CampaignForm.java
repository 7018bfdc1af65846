package dev.mailrun.campaign;

import dev.mailrun.campaign.model.ExpiryTime;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.campaign.model.SendWindows;
import dev.mailrun.campaign.send.route.Relays;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Everything {@code campaign create} takes, as the text an operator gave, turned into a
 * {@link NewCampaign} and its route with every bad value named at once: what the API's create checks
 * before {@link Campaigns#create}. Field names are the API's (camelCase).
 */
public record CampaignForm(String name, String template, String from, Optional<String> fromName, Optional<String> replyTo,
                           Optional<String> subject, Optional<String> startAt, Optional<Double> rate, List<String> windows,
                           Optional<String> expireAt, Optional<String> relay) {

    /** Timestamps are DATETIME(3) columns; the task's slots are computed from the start, so it stays a year clear of the end. */
    static final Instant EARLIEST = Instant.EPOCH;
    static final Instant LATEST = Instant.parse("9999-01-01T00:00:00Z");

    /** The command-line option each of NewCampaign's messages names, and the field the API calls it. */
    private static final Map<String, String> FIELD_OF_OPTION = Map.of("--name", "name", "--template", "template",
            "--from-name", "fromName", "--from", "from", "--reply-to", "replyTo", "--subject", "subject",
            "--window", "windows", "--expire-at", "expireAt", "--start-at", "startAt");

    public CampaignForm {
        windows = windows == null ? List.of() : List.copyOf(windows);
    }

    /** The campaign and its route (empty: the configured default route), or every problem found. */
    public Parsed parse(Relays relays) {
        List<InvalidFields.Problem> problems = new ArrayList<>();
        Optional<Instant> start = field(problems, "startAt", () -> startAt.map(CampaignForm::instant));
        Optional<Instant> expiry = field(problems, "expireAt", () -> expireAt.map(t -> within(ExpiryTime.parse(t), t)));
        Optional<SendWindows> window = field(problems, "windows",
                () -> windows.isEmpty() ? Optional.empty() : Optional.of(SendWindows.parse(windows)));
        Optional<RelayRoute> route = field(problems, "relay", () -> relay.map(r -> {
            RelayRoute parsed = RelayRoute.parse(r);
            relays.unknownIn(parsed).ifPresent(problem -> {
                throw new IllegalArgumentException(problem);
            });
            return parsed;
        }));
        if (rate.isPresent() && !(rate.get() >= 0.01 && rate.get() <= 100_000)) {
            problems.add(new InvalidFields.Problem("rate", "must be 0.01-100000 messages per second, got " + rate.get()));
        }
        if (!problems.isEmpty()) {
            throw new InvalidFields(problems);
        }
        try {
            return new Parsed(new NewCampaign(name, template, from, fromName, replyTo, subject, start, rate, window, expiry), route);
        } catch (IllegalArgumentException e) {
            throw InvalidFields.of(fieldOf(e.getMessage()), e.getMessage());
        }
    }

    /** A valid campaign and the route it sends through. */
    public record Parsed(NewCampaign campaign, Optional<RelayRoute> route) {}

    private static <T> Optional<T> field(List<InvalidFields.Problem> problems, String field, Supplier<Optional<T>> parse) {
        try {
            return parse.get();
        } catch (IllegalArgumentException | DateTimeParseException e) {
            problems.add(new InvalidFields.Problem(field, e.getMessage()));
            return Optional.empty();
        }
    }

    /** The field a message of NewCampaign is about: the option it starts with (the longest that matches). */
    static String fieldOf(String message) {
        String best = null;
        for (String option : FIELD_OF_OPTION.keySet()) {
            if (message != null && message.startsWith(option) && (best == null || option.length() > best.length())) {
                best = option;
            }
        }
        if (best != null) {
            return FIELD_OF_OPTION.get(best);
        }
        return message != null && message.startsWith("template") ? "template" : message != null && message.startsWith("rate") ? "rate" : "campaign";
    }

    private static Instant instant(String iso) {
        Instant at;
        try {
            at = Instant.parse(iso);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("must be an RFC 3339 UTC instant such as 2026-12-01T09:00:00Z, got '" + iso + "'");
        }
        return within(at, iso);
    }

    private static Instant within(Instant at, String text) {
        if (at.isBefore(EARLIEST) || !at.isBefore(LATEST)) {
            throw new IllegalArgumentException("must be from " + EARLIEST + " and before " + LATEST + ", got '" + text + "'");
        }
        return at;
    }
}
