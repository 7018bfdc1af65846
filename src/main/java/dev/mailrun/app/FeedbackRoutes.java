package dev.mailrun.app;

import dev.mailrun.app.config.FeedbackConfig;
import dev.mailrun.http.endpoint.PublicRoutes;
import dev.mailrun.campaign.feedback.FeedbackProcessor;
import dev.mailrun.http.server.Route;
import dev.mailrun.mail.feedback.HttpsFetcher;
import dev.mailrun.mail.feedback.MailgunWebhook;
import dev.mailrun.mail.feedback.PostmarkWebhook;
import dev.mailrun.mail.feedback.SendGridWebhook;
import dev.mailrun.mail.feedback.SesWebhook;
import java.util.ArrayList;
import java.util.List;

/**
 * The webhook routes of the enabled email providers ({@code /feedback/<provider>}), all applying their
 * events through one processor. A provider that is not configured has no route: its path answers 404.
 */
final class FeedbackRoutes {

    private FeedbackRoutes() {}

    /** @param fetcher fetches SNS signing certificates (and SubscribeURLs); production: {@code JdkHttpsFetcher} */
    static List<Route> of(Services s, HttpsFetcher fetcher) {
        FeedbackConfig f = s.config().feedback();
        if (f.providers().isEmpty()) {
            return List.of();
        }
        FeedbackProcessor processor = s.feedbackProcessor();
        List<Route> routes = new ArrayList<>();
        f.ses().ifPresent(ses -> routes.add(PublicRoutes.feedback(new SesWebhook(ses, fetcher, s.clock()), processor)));
        f.postmark().ifPresent(pm -> routes.add(PublicRoutes.feedback(new PostmarkWebhook(pm), processor)));
        f.sendgrid().ifPresent(sg -> routes.add(PublicRoutes.feedback(new SendGridWebhook(sg, s.clock()), processor)));
        f.mailgun().ifPresent(mg -> routes.add(PublicRoutes.feedback(new MailgunWebhook(mg, s.clock()), processor)));
        return routes;
    }
}
