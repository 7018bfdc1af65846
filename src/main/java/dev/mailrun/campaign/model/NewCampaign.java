package dev.mailrun.campaign.model;

import java.time.Instant;
import java.util.Optional;

/** What an operator gives to create a campaign; validated here so a bad value never reaches the table. */
public record NewCampaign(String name, String template, String fromAddress, Optional<String> fromName,
                          Optional<String> replyTo, Optional<String> subject, Optional<Instant> startAt,
                          Optional<Double> rateCap) {

    public NewCampaign {
        requireText("name", name, 200);
        requireText("template", template, 100);
        if (!template.matches("[A-Za-z0-9_-]+")) {
            throw new IllegalArgumentException("template name '" + template + "' may hold only letters, digits, '-' and '_'");
        }
        requireAddress("from", fromAddress);
        fromName.ifPresent(n -> requireText("from name", n, 200));
        replyTo.ifPresent(r -> requireAddress("reply-to", r));
        subject.ifPresent(s -> requireText("subject", s, 500));
        rateCap.ifPresent(r -> {
            if (!(r > 0 && r <= 100_000)) {
                throw new IllegalArgumentException("rate must be above 0 and at most 100000 messages per second, got " + r);
            }
        });
    }

    private static void requireText(String what, String value, int max) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(what + " must not be empty");
        }
        if (value.length() > max) {
            throw new IllegalArgumentException(what + " is longer than " + max + " characters");
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\r' || c == '\n' || c == 0) {
                throw new IllegalArgumentException(what + " must not contain a line break");
            }
        }
    }

    private static void requireAddress(String what, String value) {
        if (EmailAddress.check(value) instanceof EmailAddress.Invalid invalid) {
            throw new IllegalArgumentException(what + " address '" + value + "' is not valid: " + invalid.reason());
        }
    }
}
