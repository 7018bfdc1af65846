package dev.mailrun.http.endpoint;

import dev.mailrun.campaign.unsubscribe.Unsubscriber;
import dev.mailrun.http.server.Html;
import dev.mailrun.http.server.PageTexts;
import dev.mailrun.http.server.PublicPage;
import java.util.stream.Collectors;

/**
 * The pages one-click unsubscribe shows a person who opens the link, in the public page shell: the
 * question, and the answer, each saying what the request leaves ({@link Unsubscriber.Scope}): the lists
 * of a campaign sent to lists, by name; every list, for one sent to a segment; else all mail.
 */
final class UnsubscribePages {

    private final PublicPage shell;

    UnsubscribePages(PublicPage shell) {
        this.shell = shell;
    }

    PublicPage shell() {
        return shell;
    }

    /**
     * The question and its button. The form has no action: it posts back to the very URL shown, whatever
     * prefix a proxy added; its hidden field makes the button's POST the same as a mail program's
     * RFC 8058 one-click POST.
     */
    String confirm(PageTexts t, String address, Unsubscriber.Scope scope) {
        String body = "<p>" + t.markup("unsubscribe.ask." + kind(scope), Html.strong(address), names(scope)) + "</p>\n"
                + "<form method=\"post\">\n"
                + "  <input type=\"hidden\" name=\"List-Unsubscribe\" value=\"One-Click\">\n"
                + "  <button type=\"submit\">" + t.html("unsubscribe.button") + "</button>\n"
                + "</form>";
        return shell.render(t, t.text("unsubscribe.title"), body);
    }

    String done(PageTexts t, String address, Unsubscriber.Scope scope) {
        return shell.render(t, t.text("unsubscribe.done.title"),
                "<p>" + t.markup("unsubscribe.done." + kind(scope), Html.strong(address), names(scope)) + "</p>");
    }

    /** A page titled by {@code key}.title saying {@code key}.body. */
    String message(PageTexts t, String key) {
        return shell.message(t, t.text(key + ".title"), t.text(key + ".body"));
    }

    /** Which sentence fits: all mail, every list, one list or several. */
    private static String kind(Unsubscriber.Scope scope) {
        if (scope.everything()) {
            return "everything";
        }
        if (scope.everyList()) {
            return "every-list";
        }
        return scope.lists().size() == 1 ? "list" : "lists";
    }

    /** The lists' names, each escaped: "News, Offers". */
    private static String names(Unsubscriber.Scope scope) {
        return scope.lists().stream().map(Html::escape).collect(Collectors.joining(", "));
    }
}
