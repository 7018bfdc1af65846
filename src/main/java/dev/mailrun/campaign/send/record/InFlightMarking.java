package dev.mailrun.campaign.send.record;

import java.util.Optional;

/**
 * What the flush asks of the batch being sent: which recipients to mark sending now, and to be told
 * whether the marks committed. A {@link BatchMarker} for a batch sent through one relay, a
 * {@link SplitBatchMarker} of them when the batch is split among several.
 */
public interface InFlightMarking {

    /**
     * The recipients to mark now, if any; {@link #committed} or {@link #fail} follows. Those marked
     * and not yet handed to a worker, with the new ones, are at most {@code room}: the flush passes
     * one flush less the results it has yet to write, so that what a crash can find marked and not
     * recorded stays within the connections plus one flush.
     */
    Optional<Marks> take(int room);

    /** True while marks were asked for and not yet written: the flush is due. */
    boolean wanted();

    void committed(Marks marks);

    /** The marks could not be written: nothing more of the batch may be sent. */
    void fail(String problem);

    /** True once marking failed: results reported as fatal since then are this, not the relay. */
    boolean failed();
}
