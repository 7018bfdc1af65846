package dev.mailrun.campaign.tracking;

import dev.mailrun.campaign.model.TrackingEvent;
import dev.mailrun.campaign.store.TrackedLinkTable;
import java.net.InetAddress;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * What the public endpoints ask of tracking, for a token whose signature was checked:
 *
 * <ol>
 *   <li>resolve — the URL link {@code i} of the campaign's template had (a click goes only there),
 *       and the recipient still tracked (a tracked campaign, not erased); otherwise nothing is
 *       recorded and the answer is 404;</li>
 *   <li>classify ({@link Classifier}) — from the request's shape, held in memory only;</li>
 *   <li>hand the event to the bounded buffer — never a database write on the request thread;
 *       the {@link EventFlusher} writes it. A click waits a second in the {@link ClickHold} first,
 *       where a click on another link of the message can still make it part of a burst.</li>
 * </ol>
 *
 * The one read per request is the recipient's row by its primary key; the links are read once per
 * campaign and kept.
 */
public final class Tracker {

    /** A cached link list is read again for an index beyond it once it is this old (a newer run's template). */
    private static final Duration LINKS_STALE = Duration.ofSeconds(10);
    private static final int MAX_CACHED_CAMPAIGNS = 1000;

    private record Links(List<String> urls, Instant readAt) {}

    /** One request's shape, as the endpoint saw it. */
    public record Request(boolean head, String userAgent, Optional<InetAddress> client) {}

    private final DataSource dataSource;
    private final Clock clock;
    private final Classifier classifier;
    private final EventBuffer buffer;
    private final EventFlusher flusher;
    private final boolean perRecipient;
    private final TrackedLinkTable table = new TrackedLinkTable();
    private final Map<Long, Links> links = new ConcurrentHashMap<>();
    private final ClickHold hold;

    public Tracker(DataSource dataSource, Clock clock, TrackingSettings settings, MachineList machines,
                   TrackingListener listener) {
        this.dataSource = dataSource;
        this.clock = clock;
        this.classifier = new Classifier(machines, settings.scannerWindow());
        this.buffer = new EventBuffer(settings.bufferCapacity(), listener);
        this.perRecipient = settings.perRecipient();
        this.hold = new ClickHold(clock, classifier, buffer, listener, settings.bufferCapacity(), perRecipient);
        this.flusher = new EventFlusher(buffer, hold, dataSource, clock, settings.retention());
    }

    /** The writer of what this tracker records: started by the worker, flushed by tests. */
    public EventFlusher flusher() {
        return flusher;
    }

    /** The URL to redirect to for a click on link {@code linkIndex}; empty: 404, nothing recorded. */
    public Optional<String> click(long campaignId, long recipientId, int linkIndex, Request request) throws SQLException {
        Optional<String> url = link(campaignId, linkIndex);
        if (url.isEmpty()) {
            return Optional.empty();
        }
        Optional<Instant> delivered = delivered(campaignId, recipientId);
        if (delivered.isEmpty()) {
            return Optional.empty();
        }
        hold.click(campaignId, recipientId, linkIndex, request, delivered.get());
        return url;
    }

    /** Records an open; false: 404, nothing recorded. */
    public boolean open(long campaignId, long recipientId, Request request) throws SQLException {
        Optional<Instant> delivered = delivered(campaignId, recipientId);
        if (delivered.isEmpty()) {
            return false;
        }
        Instant now = clock.instant();
        Classifier.Verdict verdict = classifier.classify(new TrackedRequest(request.head(), false, request.userAgent(),
                request.client(), now, delivered.get(), Optional.empty()));
        buffer.offer(new TrackingEvent(campaignId, perRecipient ? Optional.of(recipientId) : Optional.empty(), false, -1,
                verdict.trackingClass(), verdict.family(), now));
        return true;
    }

    private Optional<Instant> delivered(long campaignId, long recipientId) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return table.trackedRecipient(c, campaignId, recipientId);
        }
    }

    private Optional<String> link(long campaignId, int index) throws SQLException {
        Instant now = clock.instant();
        Links cached = links.get(campaignId);
        if (cached == null || (index >= cached.urls().size() && now.isAfter(cached.readAt().plus(LINKS_STALE)))) {
            List<String> urls;
            try (Connection c = dataSource.getConnection()) {
                urls = table.links(c, campaignId);
            }
            if (links.size() >= MAX_CACHED_CAMPAIGNS) {
                links.clear();   // old campaigns are rarely clicked: start again rather than track their age
            }
            cached = new Links(urls, now);
            links.put(campaignId, cached);
        }
        if (index < 0 || index >= cached.urls().size() || cached.urls().get(index).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(cached.urls().get(index));
    }
}
