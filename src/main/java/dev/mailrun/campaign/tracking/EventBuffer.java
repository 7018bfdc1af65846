package dev.mailrun.campaign.tracking;

import dev.mailrun.campaign.model.TrackingEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Events between the request threads and the {@link EventFlusher}: bounded, so a flood of requests
 * costs memory up to {@code capacity} events and no more. A request thread never waits here: when
 * the buffer is full the event is dropped and counted ({@link TrackingListener#dropped}).
 */
final class EventBuffer {

    private final BlockingQueue<TrackingEvent> queue;
    private final TrackingListener listener;

    EventBuffer(int capacity, TrackingListener listener) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1: " + capacity);
        }
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.listener = listener;
    }

    /** Whether it was kept (and counted with its class, now final); false: dropped. */
    boolean offer(TrackingEvent event) {
        if (queue.offer(event)) {
            listener.tracked(event.click(), event.trackingClass());
            return true;
        }
        listener.dropped();
        return false;
    }

    /** Up to {@code max} events, oldest first; none waits. */
    List<TrackingEvent> drain(int max) {
        List<TrackingEvent> out = new ArrayList<>(Math.min(max, queue.size()));
        queue.drainTo(out, max);
        return out;
    }

    int size() {
        return queue.size();
    }
}
