package dev.mailrun.http.endpoint;

import dev.mailrun.campaign.audience.Preferences;
import dev.mailrun.http.server.Html;
import dev.mailrun.http.server.PageTexts;
import dev.mailrun.http.server.PublicPage;
import java.util.Optional;

/**
 * The preference centre's pages, in the public page shell (the operator's look, its style sheet and
 * policy): every control labelled and reachable by keyboard, one column on a phone. The forms have no
 * action: each posts back to the very URL shown, whatever prefix a proxy added, with the signed form
 * token ({@code csrf}) and the action its button names.
 */
final class PreferencePages {

    private final PublicPage shell;

    PreferencePages(PublicPage shell) {
        this.shell = shell;
    }

    PublicPage shell() {
        return shell;
    }

    /** A page titled by {@code prefs.<key>.title} saying {@code prefs.<key>.body}: what went wrong, and that nothing changed. */
    String message(PageTexts t, String key) {
        return shell.message(t, t.text("prefs." + key + ".title"), t.text("prefs." + key + ".body"));
    }

    /**
     * The preference centre: the lists (when a subscriber), leaving all, the data, erasure; {@code note}
     * a result to show first, HTML the caller escaped.
     */
    String centre(PageTexts t, String address, Optional<Preferences.View> view, String csrf, Optional<String> note) {
        String a = Html.escape(address);
        StringBuilder b = new StringBuilder(4096);
        note.ifPresent(n -> b.append("<p class=\"note\" role=\"status\">").append(n).append("</p>\n"));
        if (view.isEmpty()) {
            b.append("<p>").append(t.markup("prefs.not-subscriber", Html.strong(address))).append("</p>\n");
        } else {
            Preferences.View v = view.get();
            b.append("<p>").append(t.markup("prefs.intro", Html.strong(v.email()))).append("</p>\n");
            b.append("<form method=\"post\">").append(hidden(csrf)).append("<fieldset><legend>").append(t.html("prefs.lists"))
                    .append("</legend>\n");
            if (v.blocklisted()) {
                b.append("<p>").append(t.html("prefs.lists.blocklisted")).append("</p>\n");
            }
            if (v.lists().isEmpty()) {
                b.append("<p>").append(t.html("prefs.lists.none")).append("</p>\n");
            }
            for (Preferences.Choice ch : v.lists()) {
                String id = "list-" + ch.listId();
                b.append("<div class=\"choice\"><input type=\"checkbox\" name=\"list\" value=\"").append(ch.listId())
                        .append("\" id=\"").append(id).append("\"").append(ch.subscribed() ? " checked" : "")
                        .append(!ch.subscribed() && !ch.joinable() ? " disabled" : "").append("><label for=\"").append(id)
                        .append("\">").append(Html.escape(ch.name()));
                ch.description().ifPresent(d -> b.append("<small>").append(Html.escape(d)).append("</small>"));
                b.append("</label></div>\n");
            }
            b.append("</fieldset>\n").append(button("save", t.text("prefs.save"))).append("</form>\n");
            section(b, t, "prefs.leave-all", "leave-all", csrf, t.html("prefs.leave-all.text"));
            section(b, t, "prefs.data", "download", csrf, t.html("prefs.data.text"));
        }
        section(b, t, "prefs.erase", "erase", csrf, t.markup("prefs.erase.text", a));
        return shell.render(t, t.text("prefs.title"), b.toString());
    }

    /** The erasure's confirmation page, behind the mailed link: a button, because a GET must change nothing. */
    String confirmErasure(PageTexts t, String address, String csrf) {
        return shell.render(t, t.text("prefs.confirm.title"), "<p>" + t.markup("prefs.confirm.text", Html.strong(address)) + "</p>\n"
                + "<form method=\"post\">" + hidden(csrf) + button("erase", t.text("prefs.confirm")) + "</form>");
    }

    String erased(PageTexts t) {
        return shell.message(t, t.text("prefs.erased.title"), t.text("prefs.erased.body"));
    }

    /** A heading ({@code key}.title), a sentence, and a form with the one button ({@code key}) that does {@code action}. */
    private static void section(StringBuilder b, PageTexts t, String key, String action, String csrf, String sentence) {
        b.append("<h2>").append(t.html(key + ".title")).append("</h2>\n<form method=\"post\">").append(hidden(csrf))
                .append("<p>").append(sentence).append("</p>").append(button(action, t.text(key))).append("</form>\n");
    }

    private static String hidden(String csrf) {
        return "<input type=\"hidden\" name=\"csrf\" value=\"" + Html.escape(csrf) + "\">";
    }

    private static String button(String action, String label) {
        return "<button type=\"submit\" name=\"action\" value=\"" + action + "\"" + (action.equals("erase") ? " class=\"danger\"" : "")
                + ">" + Html.escape(label) + "</button>";
    }
}
