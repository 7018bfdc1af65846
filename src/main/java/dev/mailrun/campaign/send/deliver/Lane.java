package dev.mailrun.campaign.send.deliver;

import dev.mailrun.campaign.send.pace.RelayConnections;
import dev.mailrun.campaign.send.pace.RelayRate;
import dev.mailrun.campaign.send.pace.RelayShare;
import dev.mailrun.campaign.send.route.Relay;
import dev.mailrun.mail.smtp.SmtpPool;

/**
 * One relay of the route, as a run sends through it: its own SMTP pool, its {@link RelayRate}, its
 * {@link RelayShare} (the relay's rate held in total across workers, by relay name) and what its
 * connections report.
 */
record Lane(Relay relay, RelayRate rate, RelayShare share, SmtpPool pool, RelayConnections connections) {

    String name() {
        return relay.name();
    }
}
