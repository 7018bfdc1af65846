package dev.mailrun.app;

import dev.mailrun.campaign.audience.Erasure;
import dev.mailrun.campaign.audience.ErasureRequests;
import dev.mailrun.campaign.audience.PersonalData;
import dev.mailrun.campaign.audience.Preferences;
import dev.mailrun.campaign.unsubscribe.PreferenceTokens;
import dev.mailrun.http.endpoint.PreferenceCentre;
import dev.mailrun.testing.PublicWiring;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Clock;
import javax.sql.DataSource;

/** The preference centre wired as a worker wires it, for the tests that serve it over a real socket. */
final class PreferenceCentres {

    private PreferenceCentres() {}

    /** Erasure confirmations mailed through the relay at {@code smtpPort}; links made on {@code publicBase}. */
    static PreferenceCentre of(DataSource ds, Clock clock, PreferenceTokens tokens, int smtpPort, URI publicBase) {
        return new PreferenceCentre(tokens, new Preferences(ds, clock), new PersonalData(ds),
                new ErasureRequests(ds, new SmtpConfirmationMail(PublicWiring.smtp(smtpPort), clock), clock),
                new Erasure(ds, clock, new SecureRandom()), publicBase);
    }
}
