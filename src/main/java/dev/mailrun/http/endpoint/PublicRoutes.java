package dev.mailrun.http.endpoint;

import dev.mailrun.campaign.WebVersions;
import dev.mailrun.campaign.audience.signup.SignupGuard;
import dev.mailrun.campaign.audience.signup.Signups;
import dev.mailrun.campaign.feedback.FeedbackProcessor;
import dev.mailrun.campaign.tracking.Tracker;
import dev.mailrun.campaign.unsubscribe.PreferenceTokens;
import dev.mailrun.campaign.unsubscribe.SignupTokens;
import dev.mailrun.campaign.unsubscribe.TrackingTokens;
import dev.mailrun.campaign.unsubscribe.UnsubscribeTokens;
import dev.mailrun.campaign.unsubscribe.Unsubscriber;
import dev.mailrun.campaign.unsubscribe.WebVersionTokens;
import dev.mailrun.http.server.PublicPage;
import dev.mailrun.http.server.Route;
import dev.mailrun.http.server.TrustedProxies;
import dev.mailrun.mail.feedback.FeedbackWebhook;
import java.net.URI;

/**
 * The routes of the public listener, which recipients' mail programs and the email providers call:
 * one-click unsubscribe, the web version of a message, the preference centre, the sign-up forms, the
 * tracking endpoints, the providers' webhooks. Every page a person sees is made in the one
 * {@link PublicPage} handed in here (the operator's look, one style sheet, one policy).
 */
public final class PublicRoutes {

    private PublicRoutes() {}

    /**
     * One-click unsubscribe, {@code /u/<token>}, its pages in {@code shell}, in the language of the
     * campaign's lists ({@code listLanguage} for a list without its own) or else the reader's.
     */
    public static Route unsubscribe(UnsubscribeTokens tokens, Unsubscriber unsubscriber, PublicPage shell, String listLanguage) {
        return Route.of(UnsubscribeTokens.PATH_PREFIX + "*",
                limits -> new UnsubscribeHandler(tokens, unsubscriber, new UnsubscribePages(shell), listLanguage, limits));
    }

    /** A message's web version, {@code /w/<token>}, its links made on {@code base} (docs/CONTENT.md), its error pages in {@code shell}. */
    public static Route webVersion(WebVersionTokens tokens, URI base, WebVersions pages, PublicPage shell) {
        return Route.of(WebVersionTokens.PATH_PREFIX + "*", limits -> new WebVersionHandler(tokens, base, pages, shell));
    }

    /**
     * The preference centre, {@code /p/<token>}, and the erasure's confirmation, {@code /p/erase/<token>}
     * (docs/PREFERENCES.md), in {@code shell}.
     */
    public static Route preferences(PreferenceCentre centre, PublicPage shell) {
        return Route.of(PreferenceTokens.PATH_PREFIX + "*", limits -> new PreferenceHandler(centre, new PreferencePages(shell), limits));
    }

    /** The click endpoint, {@code /c/<token>} (docs/TRACKING.md), behind {@code proxies}, its error pages in {@code shell}. */
    public static Route trackedClicks(TrackingTokens tokens, Tracker tracker, TrustedProxies proxies, PublicPage shell) {
        return Route.of(TrackingTokens.CLICK_PREFIX + "*", limits -> new TrackingHandler(tokens, tracker, proxies, shell));
    }

    /** The open endpoint, {@code /o/<token>.gif} (docs/TRACKING.md), behind {@code proxies}, its error pages in {@code shell}. */
    public static Route trackedOpens(TrackingTokens tokens, Tracker tracker, TrustedProxies proxies, PublicPage shell) {
        return Route.of(TrackingTokens.OPEN_PREFIX + "*", limits -> new TrackingHandler(tokens, tracker, proxies, shell));
    }

    /**
     * The sign-up forms, {@code /subscribe} and {@code /subscribe/<list>} (docs/SIGNUP.md), in
     * {@code shell}, the client found behind {@code proxies} for its rate.
     */
    public static Route signup(Signups signups, SignupGuard guard, PublicPage shell, TrustedProxies proxies) {
        return Route.of(SignupHandler.PREFIX + "/*", limits -> new SignupHandler(signups, guard, new SignupPages(shell), proxies, limits));
    }

    /** A proof-of-work challenge for a form on the operator's own site, {@code /altcha/challenge}. */
    public static Route challenge(SignupGuard guard, PublicPage shell) {
        return Route.of(ChallengeHandler.PATH, limits -> new ChallengeHandler(guard, shell));
    }

    /** A sign-up's confirmation link, {@code /confirm/<token>}. */
    public static Route confirm(Signups signups, PublicPage shell) {
        return Route.of(SignupTokens.CONFIRM_PREFIX + "*", limits -> new ConfirmHandler(signups, new SignupPages(shell), limits));
    }

    /** An email provider's webhook, {@code /feedback/<provider>}. */
    public static Route feedback(FeedbackWebhook webhook, FeedbackProcessor processor) {
        return Route.of("/feedback/" + webhook.provider().id(), limits -> new FeedbackHandler(webhook, processor, limits));
    }
}
