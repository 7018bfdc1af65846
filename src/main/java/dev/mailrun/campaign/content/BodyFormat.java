package dev.mailrun.campaign.content;

import java.util.Locale;
import java.util.Optional;

/** How a campaign's own body is written: HTML as it goes out, or Markdown rendered to HTML. */
public enum BodyFormat {
    HTML,
    MARKDOWN;

    /** The format by its word ({@code html}, {@code markdown}, any case); empty for any other word. */
    public static Optional<BodyFormat> named(String word) {
        if (word == null) {
            return Optional.empty();
        }
        for (BodyFormat format : values()) {
            if (format.word().equals(word.strip().toLowerCase(Locale.ROOT))) {
                return Optional.of(format);
            }
        }
        return Optional.empty();
    }

    /** The word every interface names this format by. */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }
}
