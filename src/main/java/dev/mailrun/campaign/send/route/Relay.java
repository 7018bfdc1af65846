package dev.mailrun.campaign.send.route;

import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.mail.smtp.SmtpSettings;
import java.util.Objects;

/**
 * One named relay: how to reach it and its rate. Its name is what routes, {@code relay_share},
 * {@code relay_state}, the recipient rows and the metrics call it.
 */
public record Relay(String name, SmtpSettings smtp) {

    public Relay {
        RelayRoute.checkName(name);
        Objects.requireNonNull(smtp, "smtp");
    }

    /**
     * The relay's configured rate, in messages per second for all workers together (0: no limit):
     * its {@code smtp.rate} (or {@code smtp.<name>.rate}), kept and validated by {@link SmtpSettings}
     * alone, so that no second copy can disagree with it.
     */
    public double rate() {
        return smtp.ratePerSecond();
    }
}
