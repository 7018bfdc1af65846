package dev.mailrun.http.endpoint;

import dev.mailrun.campaign.store.audience.PublicListTable.PublicList;
import dev.mailrun.http.server.Html;
import dev.mailrun.http.server.PageTexts;
import dev.mailrun.http.server.PublicPage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The sign-up form and the confirmation pages, in the public page shell. */
final class SignupPages {

    /** What the person typed, shown again with the problems when a form comes back. */
    record Typed(String email, String name, Set<Long> lists) {
        static final Typed NONE = new Typed("", "", Set.of());
    }

    /** The proof-of-work solver, sent inline in a form that carries a challenge (allowed by its hash). */
    static final String PROOF_SCRIPT = resource("proof-of-work.js");

    private final PublicPage shell;

    SignupPages(PublicPage shell) {
        this.shell = shell;
    }

    PublicPage shell() {
        return shell;
    }

    /**
     * The form of these lists: one list is a hidden field, several are checkboxes. It has no action:
     * it posts back to the URL it was shown at. With a proof-of-work {@code challenge} (its JSON) the
     * form carries it and the solver that fills in the answer; the page must then be sent with
     * {@link #PROOF_SCRIPT} allowed.
     */
    String form(PageTexts t, List<PublicList> lists, String formToken, Optional<String> challenge, Typed typed,
                List<String> problems) {
        String title = lists.size() == 1 ? t.text("signup.title.list", lists.get(0).name()) : t.text("signup.title");
        StringBuilder b = new StringBuilder(2048);
        if (!problems.isEmpty()) {
            b.append("<div class=\"error\" role=\"alert\" id=\"problems\"><ul>");
            problems.forEach(p -> b.append("<li>").append(Html.escape(p)).append("</li>"));
            b.append("</ul></div>\n");
        }
        if (lists.size() == 1) {
            lists.get(0).description().ifPresent(d -> b.append("<p>").append(Html.escape(d)).append("</p>\n"));
        }
        b.append("<form method=\"post\" accept-charset=\"utf-8\">\n")
                .append("<input type=\"hidden\" name=\"form_token\" value=\"").append(Html.escape(formToken)).append("\">\n")
                .append("<label for=\"email\">").append(t.html("signup.email")).append("</label>\n")
                .append("<input type=\"email\" id=\"email\" name=\"email\" required maxlength=\"254\" autocomplete=\"email\" value=\"")
                .append(Html.escape(typed.email())).append("\">\n")
                .append("<label for=\"name\">").append(t.html("signup.name")).append("</label>\n")
                .append("<input type=\"text\" id=\"name\" name=\"name\" maxlength=\"200\" autocomplete=\"name\" value=\"")
                .append(Html.escape(typed.name())).append("\">\n");
        if (lists.size() == 1) {
            b.append("<input type=\"hidden\" name=\"list\" value=\"").append(lists.get(0).id()).append("\">\n");
        } else {
            b.append("<fieldset><legend>").append(t.html("signup.lists")).append("</legend>\n");
            for (PublicList l : lists) {
                b.append("<label><input type=\"checkbox\" name=\"list\" value=\"").append(l.id()).append('"')
                        .append(typed.lists().contains(l.id()) ? " checked" : "").append("> <span>")
                        .append(Html.escape(l.name()));
                l.description().ifPresent(d -> b.append("<br><span class=\"hint\">").append(Html.escape(d)).append("</span>"));
                b.append("</span></label>\n");
            }
            b.append("</fieldset>\n");
        }
        b.append("<div class=\"trap\" aria-hidden=\"true\"><label for=\"website\">").append(t.html("signup.trap"))
                .append("</label><input type=\"text\" id=\"website\" name=\"website\" tabindex=\"-1\" autocomplete=\"off\"></div>\n")
                .append("<p class=\"hint\">").append(t.html("signup.consent")).append("</p>\n");
        challenge.ifPresent(c -> b.append("<input type=\"hidden\" name=\"altcha\" id=\"altcha\" data-challenge=\"")
                .append(Html.escape(c)).append("\">\n<p class=\"hint\" id=\"altcha-status\" role=\"status\" data-done=\"")
                .append(t.html("signup.pow.done")).append("\" data-failed=\"").append(t.html("signup.pow.failed")).append("\">")
                .append(t.html("signup.pow")).append("</p>\n<noscript><p class=\"error\">").append(t.html("signup.pow.noscript"))
                .append("</p></noscript>\n"));
        b.append("<button type=\"submit\">").append(t.html("signup.submit")).append("</button>\n</form>");
        challenge.ifPresent(c -> b.append("\n<script>").append(PROOF_SCRIPT).append("</script>"));
        return shell.render(t, title, b.toString());
    }

    String done(PageTexts t, String email) {
        return shell.message(t, t.text("signup.done.title"), t.text("signup.done.body", email));
    }

    String confirm(PageTexts t, String address, List<String> lists) {
        String body = "<p>" + t.html("confirm.body", address, String.join(", ", lists)) + "</p>\n"
                + "<form method=\"post\"><button type=\"submit\">" + t.html("confirm.button") + "</button></form>";
        return shell.render(t, t.text("confirm.title"), body);
    }

    String confirmed(PageTexts t, String address, List<String> lists, java.time.Instant at) {
        return shell.message(t, t.text("confirm.done.title"), t.text("confirm.done.body", address, String.join(", ", lists),
                t.dateTime(at)));
    }

    private static String resource(String name) {
        try (InputStream in = SignupPages.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("resource " + name + " is missing from the build");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A page titled by {@code key}.title saying {@code key}.body. */
    String message(PageTexts t, String key, Object... args) {
        return shell.message(t, t.text(key + ".title"), t.text(key + ".body", args));
    }
}
