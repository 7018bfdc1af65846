package dev.mailrun.campaign;

import java.util.List;

/**
 * The lists and segments a new campaign is sent to, named as the operator names them (docs/AUDIENCE.md,
 * "Campaigns to lists and segments"); both empty: a campaign of imported recipients only.
 */
public record AudienceNames(List<String> lists, List<String> segments) {

    public static final AudienceNames NONE = new AudienceNames(List.of(), List.of());

    /** {@code null} is none. */
    public AudienceNames {
        lists = lists == null ? List.of() : List.copyOf(lists);
        segments = segments == null ? List.of() : List.copyOf(segments);
    }

    /** Sent to these lists only. */
    public static AudienceNames lists(List<String> lists) {
        return new AudienceNames(lists, List.of());
    }
}
