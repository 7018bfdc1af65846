package dev.mailrun.http.api;

import dev.mailrun.campaign.access.ApiAudit;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Requests refused for want of a valid token (401), in the audit trail — bounded, so that a
 * client hammering the API with bad tokens cannot make the database write once per request.
 *
 * <p>Per source address and clock minute, a row is written for the first refusal and then when
 * that minute's count reaches 10, 100, 1,000 and so on: at most a few rows per source and minute,
 * each saying how many so far. At most {@link #SOURCES_PER_MINUTE} sources get rows in one minute;
 * past that, one row says that others were refused too. The row names the source, the method and
 * path — never the token presented.
 */
final class AuthFailures {

    static final String ACTOR = "-";
    static final String ACTION = "authenticate";
    static final int SOURCES_PER_MINUTE = 100;
    private static final String OTHERS = "(other sources)";
    private static final Logger log = LoggerFactory.getLogger(AuthFailures.class);

    private final ApiAudit audit;
    private final Clock clock;
    private Instant minute = Instant.EPOCH;
    private final Map<String, Long> counts = new HashMap<>();

    AuthFailures(ApiAudit audit, Clock clock) {
        this.audit = audit;
        this.clock = clock;
    }

    private record Row(String source, String detail) {}

    /** One refused request from {@code source} (an address) for {@code method path}. */
    void refused(String source, String method, String path) {
        Optional<Row> row = count(source, method, path);
        if (row.isEmpty()) {
            return;
        }
        try {
            audit.record(ACTOR, ACTION, row.get().source(), 401, Optional.of(row.get().detail()));
        } catch (SQLException e) {
            log.error("API: the audit entry of a refused request from {} could not be written", source, e);
        }
    }

    /** The row this refusal writes, if it is the first or a milestone of its source's minute. */
    private synchronized Optional<Row> count(String source, String method, String path) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MINUTES);
        if (!now.equals(minute)) {
            minute = now;
            counts.clear();
        }
        String key = counts.containsKey(source) || counts.size() < SOURCES_PER_MINUTE ? source : OTHERS;
        long n = counts.merge(key, 1L, Long::sum);
        if (!isMilestone(n)) {
            return Optional.empty();
        }
        return Optional.of(new Row(Shown.of(key), n == 1
                ? "refused: no valid token (" + Shown.of(method) + " " + Shown.of(ApiHandler.PREFIX + path) + ")"
                : n + " refused requests without a valid token in the minute from " + minute));
    }

    /** 1, 10, 100, 1,000 … */
    static boolean isMilestone(long n) {
        while (n % 10 == 0) {
            n /= 10;
        }
        return n == 1;
    }
}
