package dev.mailrun.campaign.model;

import java.util.Locale;
import java.util.Optional;

/** What a tracked campaign tracks ({@code campaign create --track clicks|opens,clicks}). */
public record TrackingMode(boolean opens, boolean clicks) {

    public TrackingMode {
        if (!opens && !clicks) {
            throw new IllegalArgumentException("a tracked campaign tracks opens, clicks or both");
        }
    }

    /** {@code clicks}, {@code opens} or both, comma-separated in either order; empty for anything else. */
    public static Optional<TrackingMode> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        boolean opens = false;
        boolean clicks = false;
        for (String part : text.toLowerCase(Locale.ROOT).split(",", -1)) {
            switch (part.strip()) {
                case "opens" -> opens = true;
                case "clicks" -> clicks = true;
                default -> {
                    return Optional.empty();
                }
            }
        }
        return Optional.of(new TrackingMode(opens, clicks));
    }

    public String text() {
        return opens && clicks ? "opens,clicks" : opens ? "opens" : "clicks";
    }
}
