package dev.mailrun.campaign.tracking;

import dev.mailrun.campaign.model.TrackingClass;

/** What tracking tells the metrics: each request answered with its class, and each event dropped. */
public interface TrackingListener {

    TrackingListener NONE = new TrackingListener() {
        @Override
        public void tracked(boolean click, TrackingClass trackingClass) {
        }

        @Override
        public void dropped() {
        }
    };

    /**
     * A request for a genuine token was answered and its event handed to the buffer, in its final
     * class: an open at once, a click a second later (it may turn out to be the first of a burst).
     */
    void tracked(boolean click, TrackingClass trackingClass);

    /** The buffer was full: the event was not recorded (the answer went out all the same). */
    void dropped();
}
