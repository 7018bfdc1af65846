package dev.mailrun.scheduler;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** The handlers this worker can run, by name. Immutable. */
public final class HandlerRegistry {

    private final Map<String, TaskHandler> byName;

    private HandlerRegistry(Map<String, TaskHandler> byName) {
        this.byName = byName;
    }

    public static HandlerRegistry of(TaskHandler... handlers) {
        return of(List.of(handlers));
    }

    public static HandlerRegistry of(List<TaskHandler> handlers) {
        Map<String, TaskHandler> map = new TreeMap<>();
        for (TaskHandler h : handlers) {
            TaskHandler previous = map.put(h.name(), h);
            if (previous != null) {
                throw new IllegalArgumentException("two handlers are named '" + h.name() + "': "
                        + previous.getClass().getName() + " and " + h.getClass().getName());
            }
        }
        return new HandlerRegistry(Map.copyOf(map));
    }

    public Optional<TaskHandler> find(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    List<String> names() {
        return byName.keySet().stream().sorted().toList();
    }
}
