package dev.mailrun.campaign.send.record;

/**
 * Where the sending says it waits on the database: a connection for its recipients' in-flight
 * marks ({@link BatchMarker}), the run for its next batch's claim. Each {@link #begins} is followed
 * by one {@link #ends}, on the same thread; waits on several threads may overlap.
 */
public interface DatabaseWaits {

    DatabaseWaits NONE = new DatabaseWaits() {
        @Override
        public void begins() {
        }

        @Override
        public void ends() {
        }
    };

    void begins();

    void ends();
}
