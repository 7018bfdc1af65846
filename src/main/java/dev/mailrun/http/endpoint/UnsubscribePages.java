package dev.mailrun.http.endpoint;

import dev.mailrun.http.server.Html;

/** The pages one-click unsubscribe shows a person who opens the link: the question, and the answer. */
final class UnsubscribePages {

    private UnsubscribePages() {}

    /** The form has no action: it posts back to the very URL shown, whatever prefix a proxy added. */
    static String confirm(String address) {
        return Html.page("Unsubscribe", """
                <p>Stop all mail to <strong>%s</strong>?</p>
                <form method="post">
                  <input type="hidden" name="List-Unsubscribe" value="One-Click">
                  <button type="submit">Unsubscribe</button>
                </form>""".formatted(Html.escape(address)));
    }

    static String done(String address) {
        return Html.page("Unsubscribed", "<p><strong>%s</strong> will receive no more mail from us.</p>"
                .formatted(Html.escape(address)));
    }
}
