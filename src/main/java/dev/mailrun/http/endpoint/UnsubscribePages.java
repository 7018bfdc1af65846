package dev.mailrun.http.endpoint;

import dev.mailrun.campaign.unsubscribe.Unsubscriber;
import dev.mailrun.http.server.Html;
import java.util.stream.Collectors;

/**
 * The pages one-click unsubscribe shows a person who opens the link: the question, and the answer,
 * each saying what the request leaves ({@link Unsubscriber.Scope}): the lists of a campaign sent to
 * lists, by name; every list, for one sent to a segment; else all mail.
 */
final class UnsubscribePages {

    private UnsubscribePages() {}

    /** The form has no action: it posts back to the very URL shown, whatever prefix a proxy added. */
    static String confirm(String address, Unsubscriber.Scope scope) {
        String question = scope.everything() ? "Stop all mail to <strong>%s</strong>?".formatted(Html.escape(address))
                : "Stop mail to <strong>%s</strong> from %s?".formatted(Html.escape(address), what(scope));
        return Html.page("Unsubscribe", """
                <p>%s</p>
                <form method="post">
                  <input type="hidden" name="List-Unsubscribe" value="One-Click">
                  <button type="submit">Unsubscribe</button>
                </form>""".formatted(question));
    }

    static String done(String address, Unsubscriber.Scope scope) {
        if (scope.everything()) {
            return Html.page("Unsubscribed", "<p><strong>%s</strong> will receive no more mail from us.</p>"
                    .formatted(Html.escape(address)));
        }
        return Html.page("Unsubscribed", "<p>You will no longer receive mail from %s at <strong>%s</strong>.</p>"
                .formatted(what(scope), Html.escape(address)));
    }

    /** "the lists News, Offers", "the list News", or "any of our lists"; every name escaped. */
    private static String what(Unsubscriber.Scope scope) {
        if (scope.everyList()) {
            return "any of our lists";
        }
        return (scope.lists().size() == 1 ? "the list " : "the lists ")
                + scope.lists().stream().map(Html::escape).collect(Collectors.joining(", "));
    }
}
