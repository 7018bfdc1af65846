package dev.mailrun.campaign.send.deliver;

import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.campaign.send.pace.PacedOutgoing;
import dev.mailrun.campaign.send.pace.Pacing;
import dev.mailrun.campaign.send.policy.DailyQuota;
import dev.mailrun.campaign.send.record.BatchMarker;
import dev.mailrun.campaign.send.record.ResultBuffer;
import dev.mailrun.campaign.send.record.RunSeconds;
import dev.mailrun.campaign.send.record.SplitBatchMarker;
import dev.mailrun.campaign.send.route.Relay;
import dev.mailrun.campaign.send.route.RelayFingerprint;
import dev.mailrun.campaign.send.route.RelayHealth;
import dev.mailrun.campaign.send.route.WeightedSplit;
import dev.mailrun.campaign.send.scope.RunScope;
import dev.mailrun.campaign.send.scope.SendEvents;
import dev.mailrun.campaign.send.scope.Timing;
import dev.mailrun.campaign.store.ClaimedRecipient;
import dev.mailrun.campaign.send.pace.RelayConnections;
import dev.mailrun.mail.smtp.SendResult;
import dev.mailrun.mail.smtp.WarmConnections;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a run's batches through the relays of its route.
 *
 * <ol>
 *   <li>Each relay is a {@link Lane}: its own SMTP pool, rate and share ({@link Lanes}).</li>
 *   <li>Each batch is dealt among the lanes whose relay is up, by weight ({@link BatchDeal}); a
 *       relay that is down hands its weight to the next one of the route that is up; a relay whose
 *       back-off has passed gets one recipient, its probe, if this run won it.</li>
 *   <li>The lanes send at the same time, each with its own {@link BatchMarker}, so what a crash can
 *       leave unknown stays within the route's connections plus one flush.</li>
 *   <li>A relay that cannot be reached or refuses AUTH or TLS is marked down ({@link RelayHealth}); its
 *       lane stops taking recipients and the recipients it did not try go back to the queue untried,
 *       for the next batch to send through a relay that is up. Only when the last relay of the route
 *       goes down does that result reach the {@link ResultBuffer} as it is: the run then ends (and, for
 *       AUTH or TLS, the campaign pauses), as with a single relay. Permanent (5xx) refusals and
 *       deferrals (4xx) are recorded for their recipients as always: a recipient never moves to
 *       another relay because of a reply about itself.</li>
 *   <li>With a daily cap, the claim already reserved each recipient for one relay and counted it
 *       there ({@link DailyQuota}): the batch is dealt by those reservations, and a recipient whose
 *       relay is down (and not its probe) goes back to the queue untried, its slot back to that relay,
 *       for the next claim to reserve on a relay that is up and has room. So no relay ever sends
 *       more than its count.</li>
 * </ol>
 *
 * <p>What stays here works from one view of which relays are up while the batch is sent: the
 * weights, the lanes' results marking relays down, and fail-over. The rates are not here: each lane
 * takes its relay's from the pace.
 */
public final class RouteSender implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RouteSender.class);

    private final RunScope run;
    private final Lanes lanes;
    private final int[] weights;
    private final BatchDeal deal;
    private final RelayHealth health;
    private final ExecutorService threads;
    /** Set when a relay went down under the batch being sent and its untried recipients were handed back. */
    private volatile boolean failedOver;

    private final Pacing pacing;
    private final DailyQuota quota;
    private final RunSeconds seconds;

    /**
     * @param seconds told of every message that reached a relay and of every wait for in-flight marks
     * @param warm    where each relay's pool takes over the sessions the last run left open, and leaves its own
     */
    public RouteSender(RunScope run, RelayRoute route, List<Relay> relays, Timing timing, Pacing pacing, DailyQuota quota,
                       RunSeconds seconds, WarmConnections warm) {
        this.seconds = seconds;
        this.pacing = pacing;
        this.quota = quota;
        this.run = run;
        this.weights = route.weights();
        SendEvents events = run.events();
        Map<String, String> configs = new LinkedHashMap<>();
        relays.forEach(r -> configs.put(r.name(), RelayFingerprint.of(r.smtp())));
        this.health = new RelayHealth(run.tables().dataSource(), run.clock(), run.runToken(), configs,
                (relay, downUntil, reason) -> events.relayState(relay, downUntil));
        this.lanes = new Lanes(run, relays, timing, pacing, warm);
        this.deal = new BatchDeal(lanes, health, quota);
        pacing.routed(weights.clone());
        this.threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "mailrun-route-" + run.campaignId());
            t.setDaemon(true);
            return t;
        });
    }

    /** Reads the relays' states and takes a share of each relay before the run sends. */
    public void join() throws SQLException, InterruptedException {
        health.refresh();
        applyCaps(currentWeights());
        lanes.join();
    }

    /** Called by the flush thread: renews the relay shares and re-reads the relays' states when due. */
    public void renewIfDue() throws SQLException {
        lanes.renewIfDue();
        health.refreshIfDue();
        applyCaps(currentWeights());
    }

    /**
     * True when a relay went down under the last batch and handed back what it had not tried, while
     * another relay of the route is still up or due for its probe: the next batch goes there.
     */
    public boolean failedOverInLastBatch() {
        return failedOver && health.sendable();
    }

    /**
     * True while the run can send: a relay of the route is up, or one's back-off has passed and this
     * run may probe it. False when every relay is down and none can be probed by this run now.
     */
    public boolean sendable() {
        return health.sendable();
    }

    /** Which relays are down, until when and why, for the run's summary. */
    public String downSummary() {
        return health.describeDown();
    }

    /**
     * How many recipients a claim may reserve for {@code relay} now: any number while it is up, one
     * (its probe) once its back-off has passed, none while it is down.
     */
    public long usable(String relay) {
        if (health.up(relay)) {
            return Long.MAX_VALUE;
        }
        return health.downUntil(relay).filter(until -> !until.isAfter(run.clock().instant())).isPresent() ? 1 : 0;
    }

    /**
     * Sends one batch, every recipient through exactly one relay, and returns once each relay's
     * connections took all of its part ({@link dev.mailrun.mail.smtp.SmtpPool#dispatch}): the last
     * messages may still be on the wire, and a connection that finishes one goes on with the next
     * batch. {@link #awaitSent} waits for their results. With no relay up and no probe due, the
     * batch goes back to the queue untried.
     */
    public void send(List<ClaimedRecipient> recipients, Instant deadline, BooleanSupplier stop, ResultBuffer buffer,
              Messages messages, int flushEvery) throws Exception {
        failedOver = false;
        List<String> probes = health.probesDue();
        int[] e = currentWeights();
        applyCaps(e);
        BatchDeal.Dealt dealt = deal.deal(recipients, probes, e);
        List<ClaimedRecipient> back = dealt.back();
        if (!back.isEmpty()) {
            buffer.handBack(back);
            // Progress only if a relay can take them in the next batch; with the others at their cap
            // the run ends instead of claiming and handing back the same recipients until its deadline.
            failedOver = lanes.all().stream().anyMatch(l -> health.up(l.name()) && !quota.full(l.name()));
        }
        int active = dealt.active();
        if (active == 0) {
            return;
        }
        List<BatchMarker> markers = new ArrayList<>();
        List<Runnable> sends = new ArrayList<>();
        for (int i = 0; i < lanes.size(); i++) {
            List<ClaimedRecipient> part = dealt.parts().get(i);
            if (part.isEmpty()) {
                continue;
            }
            Lane lane = lanes.get(i);
            BatchMarker marker = new BatchMarker(
                    BatchMarker.ahead(lane.relay().smtp().connections(), Math.max(1, flushEvery / active)),
                    part.stream().map(ClaimedRecipient::id).toList(), buffer::requestFlush, buffer::awaitsResult, seconds);
            markers.add(marker);
            boolean probing = dealt.probe()[i];
            BooleanSupplier laneStop = () -> stop.getAsBoolean() || (!probing && !health.up(lane.name()));
            sends.add(() -> lane.pool().dispatch(part.stream().map(r -> PacedOutgoing.of(messages.outgoing(r, marker::beforeSend),
                            pacing.domains().limiterFor(r.email()))).toList(),
                    deadline, laneStop, result -> onResult(lane, marker, probing, result, buffer)));
        }
        buffer.watch(markers.size() == 1 ? markers.get(0) : new SplitBatchMarker(markers));
        List<Future<?>> running = new ArrayList<>();
        for (Runnable s : sends) {
            running.add(threads.submit(s));
        }
        Exception failure = null;
        for (Future<?> f : running) {
            try {
                f.get();
            } catch (ExecutionException ex) {
                if (failure == null) {
                    failure = ex.getCause() instanceof Exception cause ? cause : ex;
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Waits until every message of every batch sent has its result: before the run's last flush. */
    public void awaitSent() {
        RuntimeException failure = null;
        for (Lane lane : lanes.all()) {
            try {
                lane.pool().awaitIdle();
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** A result from a lane's connection: the relay's health first, then the recipient's outcome. */
    private void onResult(Lane lane, BatchMarker marker, boolean probe, SendResult result, ResultBuffer buffer) {
        SendResult recorded = result;
        if (result instanceof SendResult.Sent || result instanceof SendResult.Permanent
                || result instanceof SendResult.Transient) {
            seconds.messageSent();
        }
        try {
            if (result instanceof SendResult.Fatal f && !marker.failed()) {
                health.markDown(lane.name(), f.reason());
                recorded = health.allDown() ? result : new SendResult.NotAttempted(f.key());
                failedOver |= recorded != result;
            } else if (result instanceof SendResult.Unreachable u) {
                health.markDown(lane.name(), "cannot be reached: " + u.text());
                // Nothing reached the relay: the recipient goes back untried. The run goes on while
                // another relay is up or still to be probed; a probe's failure only tells about its relay.
                recorded = health.sendable() || probe ? new SendResult.NotAttempted(u.key()) : result;
                failedOver |= recorded != result;
            } else if (probe && (result instanceof SendResult.Sent || result instanceof SendResult.Permanent)) {
                health.probeSucceeded(lane.name());
            } else if (probe && result instanceof SendResult.Transient t) {
                health.markDown(lane.name(), "the probe message was deferred: " + (t.code() == 0 ? "" : t.code() + " ") + t.text());
            } else if (result instanceof SendResult.Transient) {
                health.attempted(lane.name(), true);
            } else if (result instanceof SendResult.Sent || result instanceof SendResult.Permanent) {
                health.attempted(lane.name(), false);
            }
        } catch (SQLException e) {
            // The relay's state could not be written: its recipients' results are recorded all the same.
            log.warn("Could not record the state of relay {}: {}", lane.name(), e.getMessage());
        }
        buffer.accept(recorded, lane.name());
    }

    /**
     * The weights of the relays that take recipients now: up, and (with a daily cap) not at their cap,
     * whose share the others take, as the claims deal it ({@link DailyQuota}). With every relay that is
     * up at its cap, they keep their weights: nothing more is claimed, and the run is ending.
     */
    private int[] currentWeights() {
        boolean[] up = new boolean[lanes.size()];
        boolean[] open = new boolean[lanes.size()];
        boolean anyOpen = false;
        for (int i = 0; i < up.length; i++) {
            up[i] = health.up(lanes.get(i).name());
            open[i] = up[i] && !quota.full(lanes.get(i).name());
            anyOpen |= open[i];
        }
        return WeightedSplit.effective(weights, anyOpen ? open : up);
    }

    /** The shares the relays take now: the pace divides the campaign's own rate among them by these. */
    private void applyCaps(int[] e) {
        pacing.routed(e);
    }

    /** Closes the pools, gives back the relay shares and any probe not sent. */
    @Override
    public void close() {
        threads.shutdownNow();
        lanes.close();
        health.releaseProbes();
    }

    /** What a message took on each relay before (relay name → time), so that each pool starts sized for it. */
    public void expect(Map<String, Duration> perMessage) {
        lanes.expect(perMessage);
    }

    /**
     * What a message started now still needs before its reply, as the slowest relay's pool judges it
     * when it decides whether to start one: its measured time per message with a margin, or the
     * pool's minimum before anything was measured. The timebox adds it to the end of every batch,
     * so it starts no batch the pools would refuse to start a message of.
     */
    public Duration inFlight() {
        return lanes.inFlight();
    }

    /** Each relay's connections, in route order: for the run's summary. */
    public List<RelayConnections> connections() {
        return lanes.connections();
    }

    /** Every relay's name and whether it is up, for tests and logs. */
    Optional<Instant> downUntil(String relay) {
        return health.downUntil(relay);
    }
}
