package dev.mailrun.http.console;

import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.InvalidFields;
import java.util.Map;
import java.util.Optional;

/**
 * The buttons of a campaign's page, each a POST to {@code /console/campaigns/<id>/<action>} that calls
 * the operator's API as {@code campaign <action>} does, then shows the campaign again with what happened.
 * Cancelling is asked twice: {@code GET …/cancel} says what it does, only its form's {@code confirm} field cancels.
 * Pausing and sending the failed again take values (a reason, a filter) on a page of their own
 * ({@code GET …/pause}, {@code GET …/requeue-failed}; moving the content and sending a test too:
 * {@link CampaignContentPage}, {@link SendTestPage}), so the campaign's page, which reloads itself
 * while the campaign runs, never holds a half-typed field. Cloning takes none: a button.
 */
final class CampaignActions {

    static final int MAX_REASON = 500;

    private final ConsoleServices services;
    private final Views views;
    private final Campaigns campaigns;

    CampaignActions(ConsoleServices services, Views views) {
        this.services = services;
        this.views = views;
        this.campaigns = services.api().campaigns();
    }

    Answer start(ConsoleRequest r) throws Exception {
        long id = r.id(0);
        return act(r, id, () -> "Campaign " + id + " is " + campaigns.start(id).dbValue() + ".");
    }

    Answer pause(ConsoleRequest r) throws Exception {
        long id = r.id(0);
        Optional<String> reason = r.field("reason");
        if (reason.isEmpty() || reason.get().length() > MAX_REASON) {
            throw new Refusal(back(id) + "/pause", "Pause needs a reason (1-" + MAX_REASON + " characters): it is shown to whoever resumes.");
        }
        return act(r, id, () -> {
            campaigns.pause(id, reason.get());
            return "Campaign " + id + " is paused.";
        });
    }

    Answer resume(ConsoleRequest r) throws Exception {
        long id = r.id(0);
        return act(r, id, () -> "Campaign " + id + " is " + campaigns.resume(id).dbValue() + ".");
    }

    /**
     * The page {@code view} of the campaign's action: what it does, its fields and the one button that
     * does it (cancel, pause, requeue-failed).
     */
    Answer ask(ConsoleRequest r, String view) throws Exception {
        long id = r.id(0);
        try {
            return Answer.ok(views.render(view, r.session(), Map.of("c", Figures.summary(services.api().reports().report(id)))));
        } catch (CampaignException e) {
            return Answer.error(404, e.getMessage() + ".");
        }
    }

    Answer cancel(ConsoleRequest r) throws Exception {
        long id = r.id(0);
        if (!"yes".equals(r.form().get("confirm"))) {
            throw new Refusal(back(id) + "/cancel", "Cancelling needs the confirmation: tick the box that says what it does.");
        }
        return act(r, id, () -> {
            campaigns.cancel(id);
            return "Campaign " + id + " is cancelled: nothing more will be sent.";
        });
    }

    Answer requeueUnknown(ConsoleRequest r) throws Exception {
        long id = r.id(0);
        return act(r, id, () -> campaigns.requeueUnknown(id) + " recipient(s) of unknown outcome will be sent again.");
    }

    Answer requeueFailed(ConsoleRequest r) throws Exception {
        long id = r.id(0);
        return act(r, id, () -> {
            Campaigns.RequeueResult result;
            try {
                result = campaigns.requeueFailed(id, r.field("code"), r.field("reason"));
            } catch (InvalidFields e) {
                // The form's labels: "SMTP code" and "Error text"; the form is shown again to be corrected.
                throw new Refusal(back(id) + "/requeue-failed", String.join(" ", e.problems().stream()
                        .map(p -> (p.field().equals("code") ? "SMTP code: " : "Error text: ") + p.reason() + ".").toList()));
            }
            return result.requeued() + " failed recipient(s) will be sent again" + (result.leftSuppressed() > 0
                    ? "; " + result.leftSuppressed() + " stay failed because they are suppressed." : ".");
        });
    }

    /** A new draft like the campaign, without its recipients; the new campaign's page is shown. */
    Answer cloneOf(ConsoleRequest r) throws Exception {
        long id = r.id(0);
        long copy;
        try {
            copy = campaigns.cloneOf(id, Optional.empty());
        } catch (CampaignException | IllegalArgumentException e) {
            throw new Refusal(back(id), e.getMessage());
        }
        r.session().flash(false, "Campaign " + copy + " is a copy of campaign " + id + " as a draft, sending the same content: "
                + "add its recipients, then start it.");
        return Answer.redirect(ConsoleHandler.PREFIX + back(copy));
    }

    @FunctionalInterface
    private interface Change {
        String make() throws Exception;
    }

    /** Makes the change; its outcome, or the API's refusal in its own words, is shown on the campaign's page. */
    private static Answer act(ConsoleRequest r, long id, Change change) throws Exception {
        String done;
        try {
            done = change.make();
        } catch (CampaignException | IllegalArgumentException e) {
            throw new Refusal(back(id), e.getMessage());
        }
        r.session().flash(false, done);
        return Answer.redirect(ConsoleHandler.PREFIX + back(id));
    }

    private static String back(long id) {
        return "/campaigns/" + id;
    }
}
