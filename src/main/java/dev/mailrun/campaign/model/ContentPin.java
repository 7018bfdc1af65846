package dev.mailrun.campaign.model;

import java.util.Objects;

/**
 * A stored template version a campaign (or one of its A/B variants) sends: what it sends never
 * changes while the pin stays, whatever is saved under the template's name later.
 */
public record ContentPin(String template, int version) {

    public ContentPin {
        Objects.requireNonNull(template, "template");
        if (version < 1) {
            throw new IllegalArgumentException("template versions start at 1, got " + version);
        }
    }

    @Override
    public String toString() {
        return template + "@" + version;
    }
}
