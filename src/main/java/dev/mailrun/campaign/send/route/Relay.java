package dev.mailrun.campaign.send.route;

import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.mail.smtp.SmtpSettings;
import java.util.Objects;

/**
 * One named relay: how to reach it and its rate, in messages per second for all workers together
 * (0: no limit). Its name is what routes, {@code relay_share}, {@code relay_state}, the recipient rows
 * and the metrics call it.
 */
public record Relay(String name, SmtpSettings smtp, double rate) {

    public Relay {
        RelayRoute.checkName(name);
        Objects.requireNonNull(smtp, "smtp");
        if (!(rate >= 0)) {
            throw new IllegalArgumentException("relay " + name + ": rate must be 0 (no limit) or positive, got " + rate);
        }
    }
}
