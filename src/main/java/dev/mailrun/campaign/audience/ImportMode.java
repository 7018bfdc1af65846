package dev.mailrun.campaign.audience;

import dev.mailrun.campaign.model.InvalidFields;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** What an import does with the addresses of its file ({@link SubscriberImporter}). */
public enum ImportMode {
    /** New subscribers, subscribed to the list; existing ones subscribed if they are not on it, their data left as it is. */
    ADD,
    /** As {@link #ADD}, and the file's names and attributes replace those of existing subscribers. */
    UPDATE,
    /** The listed addresses' subscriptions to the list set to unsubscribed (an unknown address is added unsubscribed). */
    UNSUBSCRIBE,
    /** The listed addresses blocklisted, and unsubscribed from every list (an unknown address is added blocklisted). */
    BLOCKLIST;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @throws InvalidFields naming {@code mode} when {@code value} names no mode */
    public static ImportMode parse(String value) {
        String v = value == null ? "" : value.strip();
        return Arrays.stream(values()).filter(m -> m.label().equalsIgnoreCase(v)).findFirst().orElseThrow(() -> InvalidFields.of(
                "mode", "must be one of " + Arrays.stream(values()).map(ImportMode::label).collect(Collectors.joining(", "))
                        + ", got '" + v + "'"));
    }

    /** Whether the import adds people to the list, so that the import's address rules apply (suppressions, the filter). */
    boolean adds() {
        return this == ADD || this == UPDATE;
    }
}
