package dev.mailrun.campaign.send.deliver;

import dev.mailrun.campaign.send.pace.RelayConnections;
import dev.mailrun.campaign.send.scope.SendEvents;
import dev.mailrun.mail.smtp.ConnectionReport;
import dev.mailrun.mail.smtp.PoolEvents;
import java.time.Duration;

/** What one lane's pool tells, passed on to the run's events under the relay's name and to its connections' report. */
final class LanePoolEvents implements PoolEvents {

    private final SendEvents events;
    private final String relay;
    private final RelayConnections connections;

    LanePoolEvents(SendEvents events, String relay, RelayConnections connections) {
        this.events = events;
        this.relay = relay;
        this.connections = connections;
    }

    @Override
    public void messageTimed(Duration took) {
        events.messageTimed(relay, took);
    }

    @Override
    public void connectionsSized(ConnectionReport report) {
        connections.sized(report);
        events.connectionsSized(relay, report.target(), report.ceiling());
    }

    @Override
    public void connectionLimitReached(int open, String reply) {
        connections.refused(open, reply);
    }

    @Override
    public void permitWaited(Duration waited) {
        events.permitWaited(relay, waited);
    }

    @Override
    public void connectionOpened() {
        events.connectionOpened(relay);
    }

    @Override
    public void connectionClosed() {
        events.connectionClosed(relay);
    }
}
