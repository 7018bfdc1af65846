package dev.mailrun.campaign;

import dev.mailrun.campaign.store.TrackedLinkTable;
import dev.mailrun.campaign.store.TrackingEventTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The export's engagement columns of a tracked campaign: each recipient's first and last human open
 * and click. Read beside the recipients, both in id order, a page at a time, so memory does not grow
 * with the campaign.
 */
final class EngagementColumns {

    static final List<String> COLUMNS = List.of("first_open_at", "last_open_at", "first_click_at", "last_click_at");
    private static final int PAGE = 1_000;

    private final DataSource dataSource;
    private final long campaignId;
    private final TrackingEventTable events = new TrackingEventTable();
    private final Deque<Map.Entry<Long, TrackingEventTable.Engagement>> buffered = new ArrayDeque<>();
    private boolean exhausted;

    private EngagementColumns(DataSource dataSource, long campaignId) {
        this.dataSource = dataSource;
        this.campaignId = campaignId;
    }

    /** The columns of a tracked campaign; empty when it is not tracked (its export keeps its columns). */
    static Optional<EngagementColumns> of(DataSource dataSource, long campaignId) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return new TrackedLinkTable().mode(c, campaignId).map(m -> new EngagementColumns(dataSource, campaignId));
        }
    }

    /** The four values of recipient {@code id}, null where there was none; ids must come in increasing order. */
    List<Object> values(long id) throws SQLException {
        while (true) {
            while (!buffered.isEmpty() && buffered.peekFirst().getKey() < id) {
                buffered.removeFirst();
            }
            if (!buffered.isEmpty() || exhausted) {
                break;
            }
            List<Map.Entry<Long, TrackingEventTable.Engagement>> page;
            try (Connection c = dataSource.getConnection()) {
                page = events.engagement(c, campaignId, id, PAGE);
            }
            buffered.addAll(page);
            exhausted = page.size() < PAGE;
            if (page.isEmpty()) {
                break;
            }
        }
        if (buffered.isEmpty() || buffered.peekFirst().getKey() != id) {
            return Arrays.asList(null, null, null, null);
        }
        TrackingEventTable.Engagement e = buffered.peekFirst().getValue();
        return Arrays.asList(e.firstOpen().orElse(null), e.lastOpen().orElse(null), e.firstClick().orElse(null),
                e.lastClick().orElse(null));
    }
}
