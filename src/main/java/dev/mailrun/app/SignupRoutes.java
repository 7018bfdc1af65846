package dev.mailrun.app;

import dev.mailrun.app.config.SignupConfig;
import dev.mailrun.campaign.audience.signup.SignupGuard;
import dev.mailrun.campaign.audience.signup.SignupSettings;
import dev.mailrun.campaign.audience.signup.Signups;
import dev.mailrun.campaign.audience.signup.SmtpSignupMailer;
import dev.mailrun.campaign.unsubscribe.SigningKey;
import dev.mailrun.campaign.unsubscribe.SignupTokens;
import dev.mailrun.http.endpoint.PublicRoutes;
import dev.mailrun.http.server.PublicPage;
import dev.mailrun.http.server.Route;
import java.net.URI;
import java.util.List;

/**
 * The sign-up routes of the public listener ({@code /subscribe}, {@code /confirm/<token>}), when
 * {@code signup.enabled}: forms and links signed with the unsubscribe secret, links made on the
 * unsubscribe base URL, messages sent through the first relay, pages in the listener's one shell.
 */
final class SignupRoutes {

    private SignupRoutes() {}

    static List<Route> of(Services s, SigningKey key, PublicPage shell) {
        SignupConfig c = s.config().signup();
        if (!c.enabled()) {
            return List.of();
        }
        String base = s.config().unsubscribe().baseUrl().orElseThrow();
        SignupSettings settings = new SignupSettings(c.from().orElseThrow(), URI.create(base), c.language(), c.confirmTemplate(),
                c.welcomeTemplate(), c.wordingVersion(), c.storeIp(), c.guard().minFillTime(), c.guard().formMaxAge());
        SignupTokens tokens = new SignupTokens(key, c.confirmTtl(), s.clock());
        SmtpSignupMailer mailer = new SmtpSignupMailer(s.contents(), s.config().relays().first().smtp(), settings, s.clock());
        Signups signups = new Signups(s.dataSource(), s.clock(), settings, tokens, mailer);
        return List.of(PublicRoutes.signup(signups, new SignupGuard(tokens, c.guard(), s.clock()), shell,
                        s.config().tracking().trustedProxies()),
                PublicRoutes.confirm(signups, shell));
    }
}
