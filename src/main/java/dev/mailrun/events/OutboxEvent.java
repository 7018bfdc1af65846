package dev.mailrun.events;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * One event on its way into the outbox: its id (a random UUID, what receivers deduplicate by), its
 * type, what it is about and the type's own fields ({@code data}: strings, numbers, booleans).
 * {@code campaignId}, {@code recipientId} and {@code email} are null where they do not apply.
 */
public record OutboxEvent(String id, EventType type, Long campaignId, Long recipientId, String email,
                          Map<String, Object> data) {

    public OutboxEvent {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(type, "type");
        data = Collections.unmodifiableMap(new LinkedHashMap<>(data));
    }

    public static OutboxEvent of(EventType type, Long campaignId, Long recipientId, String email, Map<String, Object> data) {
        return new OutboxEvent(UUID.randomUUID().toString(), type, campaignId, recipientId, email, data);
    }

    /** Fields in the order given, nulls left out: {@code fields("code", 550, "reply", reply)}. */
    public static Map<String, Object> fields(Object... keysAndValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i + 1 < keysAndValues.length; i += 2) {
            if (keysAndValues[i + 1] != null) {
                m.put((String) keysAndValues[i], keysAndValues[i + 1]);
            }
        }
        return m;
    }
}
