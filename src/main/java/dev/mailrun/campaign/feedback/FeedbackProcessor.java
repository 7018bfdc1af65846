package dev.mailrun.campaign.feedback;

import dev.mailrun.campaign.bounce.BounceRateBreaker;
import dev.mailrun.campaign.bounce.ComplaintRateBreaker;
import dev.mailrun.campaign.store.FeedbackEventTable;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.feedback.FeedbackEvent;
import dev.mailrun.mail.feedback.Provider;
import dev.mailrun.mail.feedback.Verdict;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.sql.DataSource;

/**
 * Applies the events of one verified webhook request, then checks the bounce and complaint rates of
 * every campaign that got a new hard bounce or complaint.
 *
 * <p>Each event is applied in its own transaction ({@link FeedbackApplier}), so a database failure
 * part-way leaves the events before it applied and the rest untouched; the request then fails, the
 * provider delivers it again, and the applied ones are duplicates. A request carrying a one-time
 * signature value (Mailgun's token) is applied in one transaction that first records the value: a
 * second request with the same value is a replayed signature and changes nothing.
 *
 * <p>Event ids are kept {@link #RETENTION} (longer than any provider retries: SNS about an hour,
 * Mailgun 8 hours, SendGrid and Postmark a day or so); at most once an hour the older ones are pruned.
 */
public final class FeedbackProcessor {

    static final Duration RETENTION = Duration.ofDays(7);
    private static final Duration PRUNE_EVERY = Duration.ofHours(1);
    private static final int PRUNE_BATCH = 5_000;
    private static final int PRUNE_BATCHES = 20;

    private final DataSource dataSource;
    private final FeedbackApplier applier;
    private final BounceRateBreaker bounceBreaker;
    private final ComplaintRateBreaker complaintBreaker;
    private final Clock clock;
    private final FeedbackEventTable events = new FeedbackEventTable();
    private Instant lastPrune;   // guarded by this

    public FeedbackProcessor(DataSource dataSource, FeedbackApplier applier, BounceRateBreaker bounceBreaker,
                             ComplaintRateBreaker complaintBreaker, Clock clock) {
        this.dataSource = dataSource;
        this.applier = applier;
        this.bounceBreaker = bounceBreaker;
        this.complaintBreaker = complaintBreaker;
        this.clock = clock;
    }

    public FeedbackSummary apply(Provider provider, Verdict.Accepted request) throws SQLException {
        List<FeedbackApplier.Applied> applied;
        if (request.nonce().isPresent()) {
            applied = Transactions.inTransaction(dataSource, c -> {
                Instant now = clock.instant();
                if (!applier.recordNonce(c, provider, request.nonce().get(), now)) {
                    return null;
                }
                List<FeedbackApplier.Applied> all = new ArrayList<>();
                for (FeedbackEvent e : request.events()) {
                    all.add(applier.apply(c, e, now));
                }
                return all;
            });
            if (applied == null) {
                return FeedbackSummary.replay();
            }
        } else {
            applied = new ArrayList<>(request.events().size());
            for (FeedbackEvent e : request.events()) {
                applied.add(e.acts()
                        ? Transactions.inTransaction(dataSource, c -> applier.apply(c, e, clock.instant()))
                        : FeedbackApplier.counted(e));
            }
        }
        Map<FeedbackApplier.Effect, Integer> counts = new EnumMap<>(FeedbackApplier.Effect.class);
        Set<Long> hardBounced = new TreeSet<>();
        Set<Long> complained = new TreeSet<>();
        for (FeedbackApplier.Applied a : applied) {
            counts.merge(a.effect(), 1, Integer::sum);
            if (a.effect() == FeedbackApplier.Effect.HARD) {
                a.campaign().ifPresent(hardBounced::add);
            } else if (a.effect() == FeedbackApplier.Effect.COMPLAINT) {
                a.campaign().ifPresent(complained::add);
            }
        }
        List<Long> paused = new ArrayList<>();
        for (long campaignId : hardBounced) {
            if (bounceBreaker.pauseIfTooHigh(campaignId).isPresent()) {
                paused.add(campaignId);
            }
        }
        for (long campaignId : complained) {
            if (!paused.contains(campaignId) && complaintBreaker.pauseIfTooHigh(campaignId).isPresent()) {
                paused.add(campaignId);
            }
        }
        pruneWhenDue();
        return new FeedbackSummary(counts, paused, false);
    }

    private void pruneWhenDue() throws SQLException {
        Instant now = clock.instant();
        synchronized (this) {
            if (lastPrune != null && now.isBefore(lastPrune.plus(PRUNE_EVERY))) {
                return;
            }
            lastPrune = now;
        }
        Instant before = now.minus(RETENTION);
        for (int i = 0; i < PRUNE_BATCHES; i++) {
            int deleted = Transactions.inTransaction(dataSource, c -> events.prune(c, before, PRUNE_BATCH));
            if (deleted < PRUNE_BATCH) {
                return;
            }
        }
    }
}
