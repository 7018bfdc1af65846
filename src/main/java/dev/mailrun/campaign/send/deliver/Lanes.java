package dev.mailrun.campaign.send.deliver;

import dev.mailrun.campaign.send.pace.Pacing;
import dev.mailrun.campaign.send.pace.RelayConnections;
import dev.mailrun.campaign.send.pace.RelayRate;
import dev.mailrun.campaign.send.pace.RelayShare;
import dev.mailrun.campaign.send.route.Relay;
import dev.mailrun.campaign.send.scope.RunScope;
import dev.mailrun.campaign.send.scope.Timing;
import dev.mailrun.mail.smtp.SmtpPool;
import dev.mailrun.mail.smtp.WarmConnections;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The lanes of a run's route, in route order: each relay's pool, rate and share set up together,
 * joined and renewed together, and closed together at the end of the run. A pool takes over the
 * sessions the last run to its relay left open, and leaves its own for the next ({@link WarmConnections}).
 */
final class Lanes implements AutoCloseable {

    private final List<Lane> lanes;

    Lanes(RunScope run, List<Relay> relays, Timing timing, Pacing pacing, WarmConnections warm) {
        List<Lane> made = new ArrayList<>();
        for (Relay relay : relays) {
            RelayRate rate = pacing.relay(relay.name());
            RelayConnections connections = new RelayConnections(relay.name());
            SmtpPool pool = new SmtpPool(relay.smtp(), rate.limiter(), run.clock(),
                    new LanePoolEvents(run.events(), relay.name(), connections), warm);
            connections.attach(pool::limitConnections);
            // The route's first relay also holds the domain groups' shares and syncs the adapted rates.
            RelayShare share = new RelayShare(run, relay.name(), rate, timing, pacing, made.isEmpty(), connections);
            made.add(new Lane(relay, rate, share, pool, connections));
        }
        this.lanes = List.copyOf(made);
    }

    int size() {
        return lanes.size();
    }

    Lane get(int i) {
        return lanes.get(i);
    }

    List<Lane> all() {
        return lanes;
    }

    int indexOf(String relay) {
        for (int i = 0; i < lanes.size(); i++) {
            if (lanes.get(i).name().equals(relay)) {
                return i;
            }
        }
        throw new IllegalArgumentException("relay " + relay + " is not on this route");
    }

    /** Takes a share of each relay before the run sends. */
    void join() throws SQLException, InterruptedException {
        for (Lane lane : lanes) {
            lane.share().join();
        }
    }

    void renewIfDue() throws SQLException {
        for (Lane lane : lanes) {
            lane.share().renewIfDue();
        }
    }

    /** What a message took on each relay before (relay name → time), so that each pool starts sized for it. */
    void expect(Map<String, Duration> perMessage) {
        for (Lane lane : lanes) {
            Duration d = perMessage.get(lane.name());
            if (d != null) {
                lane.pool().expect(d);
            }
        }
    }

    /** The slowest pool's start budget: what a message started now still needs before its reply. */
    Duration inFlight() {
        Duration slowest = Duration.ZERO;
        for (Lane lane : lanes) {
            Duration d = lane.pool().startBudget();
            if (d.compareTo(slowest) > 0) {
                slowest = d;
            }
        }
        return slowest;
    }

    List<RelayConnections> connections() {
        return lanes.stream().map(Lane::connections).toList();
    }

    /** Closes the pools (leaving their open sessions for the next run) and gives back the relay shares. */
    @Override
    public void close() {
        for (Lane lane : lanes) {
            lane.pool().close();
            lane.share().release();
        }
    }
}
