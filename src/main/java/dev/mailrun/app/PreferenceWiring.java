package dev.mailrun.app;

import dev.mailrun.campaign.audience.Erasure;
import dev.mailrun.campaign.audience.ErasureRequests;
import dev.mailrun.campaign.audience.PersonalData;
import dev.mailrun.campaign.audience.Preferences;
import dev.mailrun.campaign.unsubscribe.PreferenceTokens;
import dev.mailrun.campaign.unsubscribe.SigningKey;
import dev.mailrun.campaign.unsubscribe.UnsubscribeTokens;
import dev.mailrun.http.endpoint.PreferenceCentre;
import java.net.URI;
import java.security.SecureRandom;

/** The preference centre and the erasure over one configuration's services (docs/PREFERENCES.md, docs/ERASURE.md). */
public final class PreferenceWiring {

    private PreferenceWiring() {}

    /** The one erasure every way in (CLI, API, console, the preference centre) calls. */
    public static Erasure erasure(Services s) {
        return new Erasure(s.dataSource(), s.clock(), new SecureRandom());
    }

    /**
     * What the public listener's {@code /p/} serves: links on {@code unsubscribe.base-url}, signed with
     * {@code unsubscribe.secret}, the confirmation sent through the default route's first relay.
     */
    static PreferenceCentre centre(Services s, String baseUrl) {
        SigningKey key = SigningKey.of(s.config().unsubscribe().requireSecret().reveal());
        return new PreferenceCentre(new PreferenceTokens(key, s.clock()), new Preferences(s.dataSource(), s.clock()),
                new PersonalData(s.dataSource()),
                new ErasureRequests(s.dataSource(), new SmtpConfirmationMail(s.config().relays().first().smtp(), s.clock()), s.clock()),
                erasure(s), UnsubscribeTokens.linkBase(URI.create(baseUrl)));
    }
}
