package dev.mailrun.campaign.model;

import java.util.Locale;

/**
 * What a campaign's web version pages show (docs/CONTENT.md, "Web version"): the recipient's own fields, as
 * their message had them, or only the campaign's.
 */
public enum WebVersionMode {
    /** The address, the name, the imported columns and the unsubscribe link, as the message had them. */
    PERSONAL,
    /** The campaign's fields and the template's defaults only; no unsubscribe link. */
    ANONYMOUS;

    /**
     * The mode by its word ({@code personal}, {@code anonymous}, any case).
     *
     * @throws IllegalArgumentException naming the words there are, for any other
     */
    public static WebVersionMode parse(String word) {
        String w = word == null ? "" : word.strip().toLowerCase(Locale.ROOT);
        for (WebVersionMode mode : values()) {
            if (mode.word().equals(w)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("must be personal or anonymous, got '" + shown(word == null ? "" : word.strip()) + "'");
    }

    /** A word as a one-line message may quote it: control characters as '?', at most 40 characters. */
    private static String shown(String word) {
        String line = word.replaceAll("\\p{Cntrl}", "?");
        return line.length() > 40 ? line.substring(0, 40) + "…" : line;
    }

    /** The configuration's {@code webversion.personal} as a mode. */
    public static WebVersionMode of(boolean personal) {
        return personal ? PERSONAL : ANONYMOUS;
    }

    /** The word every interface names this mode by, and the column holds. */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }
}
