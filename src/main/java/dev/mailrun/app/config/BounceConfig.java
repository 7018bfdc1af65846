package dev.mailrun.app.config;

import dev.mailrun.campaign.bounce.BounceSettings;
import dev.mailrun.mail.bounce.MailboxSettings;
import java.time.Duration;
import java.util.Optional;

/** Bounce processing: the mailbox (optional), its interval, VERP return paths and the thresholds. */
public record BounceConfig(Optional<MailboxSettings> mailbox, Duration interval, Optional<String> returnPathDomain,
                           BounceSettings settings) {

    @Override
    public String toString() {
        return "BounceConfig[mailbox=" + mailbox.map(Object::toString).orElse("(none)") + ", interval=" + interval
                + ", returnPathDomain=" + returnPathDomain.orElse("-") + ", settings=" + settings + "]";
    }
}
