package dev.mailrun.testing;

import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.campaign.send.route.Relays;
import dev.mailrun.campaign.send.scope.SendSettings;
import dev.mailrun.mail.smtp.SmtpSettings;

/**
 * A test's sending settings and the one relay it sends through: the relay's name (tests sharing a
 * database name theirs apart, as workers sharing a relay name theirs alike) and its rate, in messages
 * per second for all workers together (0: no limit). Built by {@link SendSettingsFixtures}.
 */
public record OneRelaySettings(SendSettings send, String relay, double rate) {

    /**
     * The relays of a run through {@code smtp}: this one alone, named {@code relay} (or {@code default}
     * when that is no relay name), its rate set on {@code smtp}, as the configuration sets it.
     */
    public Relays relays(SmtpSettings smtp) {
        return Relays.single(RelayRoute.NAME.matcher(relay).matches() ? relay : Relays.DEFAULT, smtp.withRate(rate));
    }
}
