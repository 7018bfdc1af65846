package dev.mailrun.campaign.content;

import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.mail.template.TemplateProblem;
import java.util.Locale;
import java.util.Objects;

/**
 * A campaign's own message as an operator gives it at creation: the layout template it is placed into
 * and what it says ({@link OwnMessage}). Stored as a version of a template named after the campaign
 * ({@link #templateName}), so it is pinned, exported and cloned as any template is.
 */
public record MessageForm(String layout, OwnMessage message) {

    /** Template names are at most this long (TemplateLoader's rule). */
    private static final int MAX_NAME = 64;

    public MessageForm {
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(message, "message");
    }

    /**
     * The field of this form a problem of its composition as the template {@code name} is about, as every
     * interface names it: {@code layout}, {@code subject}, {@code text} (only when a text was given: else
     * the text part is read out of the body), or {@code body} — the body's own problems, and those of the
     * composed template that no other field wrote (its size, a field recipients lack in the layout's HTML).
     */
    public String fieldOf(String name, TemplateProblem problem) {
        String file = problem.file();
        if (file.startsWith("layout ")) {
            return "layout";
        }
        if (file.equals(name + "/subject") || file.equals(name + "/" + TemplateLoader.SUBJECT)) {
            return "subject";
        }
        if (message.text().isPresent() && (file.equals(name + "/text") || file.equals(name + "/" + TemplateLoader.TEXT))) {
            return "text";
        }
        return "body";
    }

    /**
     * The template a campaign's own message is stored under: its name in lower case, every run of other
     * characters than letters and digits one '-' ("Weekly news #49" is {@code weekly-news-49}); a later
     * campaign of the same name stores its message as that template's next version.
     */
    public static String templateName(String campaignName) {
        String slug = campaignName.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        if (slug.length() > MAX_NAME) {
            slug = slug.substring(0, MAX_NAME).replaceAll("-+$", "");
        }
        return slug.isEmpty() ? "message" : slug;
    }
}
