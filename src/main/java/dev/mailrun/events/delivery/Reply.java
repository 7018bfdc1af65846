package dev.mailrun.events.delivery;

import java.time.Duration;
import java.util.Optional;

/**
 * What a delivery attempt came to: the endpoint's status and the start of its answer, or no status
 * when the request failed (timeout, refused connection, a refused address).
 */
public record Reply(int status, String text, Optional<Duration> retryAfter) {

    /** What becomes of the events of an attempt. */
    public enum Verdict {
        /** 2xx: delivered. */
        DELIVERED,
        /** 4xx other than 408 and 429: this delivery is refused for good. */
        REFUSED,
        /** Anything else (no answer, 3xx — redirects are not followed —, 408, 429, 5xx): tried again later. */
        RETRY
    }

    /** The longest part of an answer kept with a delivery. */
    static final int KEPT = 500;

    public static Reply failure(String why) {
        return new Reply(0, why, Optional.empty());
    }

    public Verdict verdict() {
        if (status >= 200 && status < 300) {
            return Verdict.DELIVERED;
        }
        if (status >= 400 && status < 500 && status != 408 && status != 429) {
            return Verdict.REFUSED;
        }
        return Verdict.RETRY;
    }

    /** One line for the delivery's row and the log: the status and the answer's start, control characters replaced. */
    public String summary() {
        String t = text == null ? "" : text.replaceAll("[\\p{Cntrl}\\u2028\\u2029]", " ").strip();
        if (t.length() > KEPT) {
            t = t.substring(0, KEPT);
        }
        return status == 0 ? t : "HTTP " + status + (t.isEmpty() ? "" : ": " + t);
    }
}
