package dev.mailrun.campaign;

import dev.mailrun.campaign.store.ContentPinTable.Change;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Which stored version a message was sent from: the pin in force when it was sent. A pin moves only
 * while no run holds the campaign, so no message was sent across a move.
 */
record ContentHistory(List<Change> changes) {

    ContentHistory {
        changes = List.copyOf(changes);
    }

    /**
     * The version ({@code template@version}) a message sent at {@code sentAt} was rendered from: the
     * variant's own pin when it has one, otherwise the campaign's; empty when nothing was pinned then.
     */
    Optional<String> at(Optional<String> variant, Instant sentAt) {
        Optional<String> own = variant.flatMap(v -> latest(Optional.of(v), sentAt));
        return own.isPresent() ? own : latest(Optional.empty(), sentAt);
    }

    private Optional<String> latest(Optional<String> variant, Instant sentAt) {
        Optional<String> found = Optional.empty();
        for (Change c : changes) {
            if (c.variant().equals(variant) && !c.at().isAfter(sentAt)) {
                found = Optional.of(c.template() + "@" + c.to());
            }
        }
        return found;
    }
}
