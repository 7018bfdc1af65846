package dev.mailrun.campaign.content;

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
