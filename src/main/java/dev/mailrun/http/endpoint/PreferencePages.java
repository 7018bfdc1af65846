package dev.mailrun.http.endpoint;

import dev.mailrun.campaign.audience.Preferences;
import dev.mailrun.http.server.Html;
import java.util.Optional;

/**
 * The preference centre's pages: small, self-contained, no script, nothing loaded from elsewhere,
 * readable on a phone (one column, no fixed widths), every control labelled and reachable by keyboard.
 * The forms have no action: each posts back to the very URL shown, whatever prefix a proxy added, with
 * the signed form token ({@code csrf}) and the action its button names.
 */
final class PreferencePages {

    private static final String STYLE = """
            body{font-family:system-ui,sans-serif;line-height:1.5;max-width:36rem;margin:0 auto;padding:1rem;color:#1a1a1a;background:#fff}
            h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem}
            fieldset{border:1px solid #bbb;border-radius:.4rem;padding:.75rem}
            .choice{display:flex;gap:.6rem;align-items:flex-start;padding:.4rem 0}
            .choice input{width:1.3rem;height:1.3rem;margin-top:.15rem;flex:none}
            .choice small{display:block;color:#555}
            button{font-size:1rem;padding:.6rem 1rem;margin-top:.75rem;border-radius:.4rem;border:1px solid #333;background:#f2f2f2;cursor:pointer;max-width:100%}
            button:focus,input:focus{outline:3px solid #1a5fb4;outline-offset:2px}
            .note{padding:.6rem;border-left:4px solid #1a5fb4;background:#eef4fb}
            .danger{border-color:#a51d2d}
            p,label,strong{overflow-wrap:anywhere}""";

    private PreferencePages() {}

    static String page(PreferenceTexts t, String title, String body) {
        return """
                <!DOCTYPE html>
                <html lang="%s"><head><meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <meta name="robots" content="noindex">
                <title>%s</title><style>%s</style></head>
                <body><main>
                <h1>%s</h1>
                %s
                </main></body></html>
                """.formatted(t.language(), Html.escape(title), STYLE, Html.escape(title), body);
    }

    /** A page saying what went wrong and that nothing changed. */
    static String message(PreferenceTexts t, String key) {
        return page(t, t.get(key + ".title"), "<p>" + t.get(key + ".text") + "</p>");
    }

    /** The preference centre: the lists (when a subscriber), leaving all, the data, erasure; {@code note} a result to show first. */
    static String centre(PreferenceTexts t, String address, Optional<Preferences.View> view, String csrf, Optional<String> note) {
        String a = Html.escape(address);
        StringBuilder b = new StringBuilder();
        note.ifPresent(n -> b.append("<p class=\"note\" role=\"status\">").append(n).append("</p>\n"));
        if (view.isEmpty()) {
            b.append("<p>").append(t.get("notSubscriber", a)).append("</p>\n");
        } else {
            Preferences.View v = view.get();
            b.append("<p>").append(t.get("intro", Html.escape(v.email()))).append("</p>\n");
            b.append("<form method=\"post\">").append(hidden(csrf)).append("<fieldset><legend>").append(t.get("lists")).append("</legend>\n");
            if (v.blocklisted()) {
                b.append("<p>").append(t.get("lists.blocklisted")).append("</p>\n");
            }
            if (v.lists().isEmpty()) {
                b.append("<p>").append(t.get("lists.none")).append("</p>\n");
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
            b.append("</fieldset>\n").append(button("save", t.get("save"))).append("</form>\n");
            b.append("<h2>").append(t.get("leaveAll.title")).append("</h2>\n<form method=\"post\">").append(hidden(csrf))
                    .append("<p>").append(t.get("leaveAll.text")).append("</p>").append(button("leave-all", t.get("leaveAll")))
                    .append("</form>\n");
            b.append("<h2>").append(t.get("data.title")).append("</h2>\n<form method=\"post\">").append(hidden(csrf))
                    .append("<p>").append(t.get("data.text")).append("</p>").append(button("download", t.get("data")))
                    .append("</form>\n");
        }
        b.append("<h2>").append(t.get("erase.title")).append("</h2>\n<form method=\"post\">").append(hidden(csrf))
                .append("<p>").append(t.get("erase.text", a)).append("</p>").append(button("erase", t.get("erase")))
                .append("</form>\n");
        return page(t, t.get("title"), b.toString());
    }

    /** The erasure's confirmation page, behind the mailed link: a button, because a GET must change nothing. */
    static String confirmErasure(PreferenceTexts t, String address, String csrf) {
        return page(t, t.get("confirm.title"), "<p>" + t.get("confirm.text", Html.escape(address)) + "</p>\n"
                + "<form method=\"post\">" + hidden(csrf) + button("erase", t.get("confirm")) + "</form>");
    }

    static String erased(PreferenceTexts t) {
        return page(t, t.get("erased.title"), "<p>" + t.get("erased.text") + "</p>");
    }

    private static String hidden(String csrf) {
        return "<input type=\"hidden\" name=\"csrf\" value=\"" + Html.escape(csrf) + "\">";
    }

    private static String button(String action, String label) {
        return "<button type=\"submit\" name=\"action\" value=\"" + action + "\"" + (action.equals("erase") ? " class=\"danger\"" : "")
                + ">" + Html.escape(label) + "</button>";
    }
}
