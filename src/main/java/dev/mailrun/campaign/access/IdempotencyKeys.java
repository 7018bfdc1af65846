package dev.mailrun.campaign.access;

import dev.mailrun.campaign.store.IdempotencyTable;
import dev.mailrun.db.Transactions;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Idempotency keys of the API's POSTs, per token, kept {@link #KEPT}: the first request with a key
 * claims it and its answer is stored; a retry with the same key and the same request gets that
 * answer again and changes nothing; with another request it is refused.
 */
public final class IdempotencyKeys {

    public static final Duration KEPT = Duration.ofHours(24);
    /** Expired keys deleted per claim: enough to keep up with any request rate the API allows. */
    static final int PURGE_BATCH = 100;

    /** What a claim found. */
    public sealed interface Claim {}

    /** The key is this request's now: carry it out, then {@link #complete} or {@link #release}. */
    public record Claimed() implements Claim {}

    /** The same request was answered before: send this answer again. */
    public record Replay(int status, String contentType, Map<String, String> headers, byte[] body) implements Claim {}

    /** The same request is still under way. */
    public record InProgress() implements Claim {}

    /** The key came with another request. */
    public record Mismatch() implements Claim {}

    private final DataSource dataSource;
    private final Clock clock;
    private final IdempotencyTable table = new IdempotencyTable();

    public IdempotencyKeys(DataSource dataSource, Clock clock) {
        this.dataSource = dataSource;
        this.clock = clock;
    }

    public Claim claim(String token, String key, byte[] requestSha256) throws SQLException {
        Instant now = clock.instant();
        return Transactions.inTransaction(dataSource, c -> {
            table.purge(c, now.minus(KEPT), PURGE_BATCH);
            if (table.claim(c, token, key, requestSha256, now)) {
                return new Claimed();
            }
            Optional<IdempotencyTable.Stored> stored = table.find(c, token, key);
            if (stored.isEmpty() || stored.get().createdAt().isBefore(now.minus(KEPT))) {
                // Expired, or deleted between the two statements: the key is free again.
                table.delete(c, token, key);
                return table.claim(c, token, key, requestSha256, now) ? new Claimed() : new InProgress();
            }
            IdempotencyTable.Stored s = stored.get();
            if (!MessageDigest.isEqual(s.requestSha256(), requestSha256)) {
                return new Mismatch();
            }
            return s.status().<Claim>map(status -> new Replay(status, s.contentType(), headers(s.headers()), s.body())).orElse(new InProgress());
        });
    }

    /** Stores the answer a retry gets: its status, content type, own headers (no CR or LF in them) and body. */
    public void complete(String token, String key, int status, String contentType, Map<String, String> headers, byte[] body)
            throws SQLException {
        StringBuilder lines = new StringBuilder();
        headers.forEach((name, value) -> lines.append(name).append(": ").append(value).append('\n'));
        Transactions.inTransaction(dataSource, c -> {
            table.complete(c, token, key, status, contentType, lines.toString(), body);
            return null;
        });
    }

    private static Map<String, String> headers(String lines) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (lines != null) {
            for (String line : lines.split("\n")) {
                int colon = line.indexOf(": ");
                if (colon > 0) {
                    headers.put(line.substring(0, colon), line.substring(colon + 2));
                }
            }
        }
        return headers;
    }

    /** Frees a key whose request failed for a reason a retry may not meet (a server error). */
    public void release(String token, String key) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            table.delete(c, token, key);
        }
    }
}
