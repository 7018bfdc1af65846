package dev.mailrun.app;

import dev.mailrun.app.config.SignupConfig;
import dev.mailrun.campaign.audience.signup.ProofOfWork;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The sign-up routes of the public listener ({@code /subscribe}, {@code /confirm/<token>}), when
 * {@code signup.enabled}: forms and links signed with the unsubscribe secret, links made on the
 * unsubscribe base URL, messages sent through the first relay, pages in the listener's one shell;
 * with {@code signup.proof-of-work}, a challenge on each form and {@code /altcha/challenge} for others.
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
        Optional<ProofOfWork> proof = c.proofOfWork().map(max -> new ProofOfWork(key.derivedKey("altcha"), max,
                c.guard().formMaxAge(), s.clock()));
        SignupGuard guard = new SignupGuard(tokens, c.guard(), proof, s.clock());
        List<Route> routes = new ArrayList<>(List.of(PublicRoutes.signup(signups, guard, shell, s.config().tracking().trustedProxies()),
                PublicRoutes.confirm(signups, shell)));
        if (proof.isPresent()) {
            routes.add(PublicRoutes.challenge(guard, shell));
        }
        return List.copyOf(routes);
    }
}
