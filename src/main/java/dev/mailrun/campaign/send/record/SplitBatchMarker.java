package dev.mailrun.campaign.send.record;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The markers of one batch split among several relays, one per relay, so that each relay's
 * connections keep their own recipients marked just ahead of them: relays that send at different
 * speeds never leave a long run of marked, untried recipients behind the slower one. One flush
 * writes all their marks.
 */
public final class SplitBatchMarker implements InFlightMarking {

    private record Part(BatchMarker marker, Marks marks) {}

    private final List<BatchMarker> markers;
    private List<Part> taken;

    public SplitBatchMarker(List<BatchMarker> markers) {
        this.markers = List.copyOf(markers);
    }

    @Override
    public synchronized Optional<Marks> take(int room) {
        if (taken != null) {
            return Optional.empty();
        }
        // The room is the batch's, shared by its relays: first what each already holds marked
        // ahead of its workers, then the new marks, relay by relay.
        int left = room;
        for (BatchMarker m : markers) {
            left -= m.untried();
        }
        List<Part> parts = new ArrayList<>();
        List<Long> ids = new ArrayList<>();
        for (BatchMarker m : markers) {
            Optional<Marks> marks = m.takeNew(left);
            if (marks.isPresent()) {
                parts.add(new Part(m, marks.get()));
                ids.addAll(marks.get().ids());
                left -= marks.get().ids().size();
            }
        }
        if (parts.isEmpty()) {
            return Optional.empty();
        }
        taken = parts;
        return Optional.of(new Marks(ids, 0));
    }

    @Override
    public boolean wanted() {
        return markers.stream().anyMatch(BatchMarker::wanted);
    }

    @Override
    public synchronized void committed(Marks marks) {
        if (taken != null) {
            taken.forEach(p -> p.marker().committed(p.marks()));
            taken = null;
        }
    }

    @Override
    public synchronized void fail(String problem) {
        markers.forEach(m -> m.fail(problem));
        taken = null;
    }

    @Override
    public boolean failed() {
        return markers.stream().anyMatch(BatchMarker::failed);
    }
}
