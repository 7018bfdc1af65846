package dev.mailrun.events.delivery;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;

/**
 * Posts signed batches of events to the endpoints, one Jetty {@link HttpClient} per endpoint (each
 * with its own {@link AddressGuard}). Redirects are not followed: a 3xx is an answer like any other,
 * tried again later, so a receiver cannot send the events (and their signatures) somewhere else.
 * Answers are buffered up to Jetty's 2 MiB (a larger one fails the attempt); the first
 * {@value Reply#KEPT} characters are kept with the delivery.
 */
public final class WebhookClient implements AutoCloseable {

    private final Map<String, HttpClient> clients = new HashMap<>();
    private final Clock clock;

    public WebhookClient(Clock clock) {
        this.clock = clock;
    }

    /** Posts {@code body} to {@code endpoint} with the Standard Webhooks headers; never throws for the endpoint's failures. */
    public Reply post(Endpoint endpoint, String id, byte[] body) {
        long timestamp = clock.instant().getEpochSecond();
        Request request = client(endpoint).newRequest(endpoint.url())
                .method(HttpMethod.POST)
                .timeout(endpoint.timeout().toMillis(), TimeUnit.MILLISECONDS)
                .headers(h -> h.put("webhook-id", id)
                        .put("webhook-timestamp", Long.toString(timestamp))
                        .put("webhook-signature", Signer.sign(endpoint.secret(), id, timestamp, body))
                        .put(HttpHeader.USER_AGENT, "mailrun-events"))
                .body(new BytesRequestContent("application/json", body));
        try {
            ContentResponse r = request.send();
            byte[] content = r.getContent();
            String text = new String(content, 0, Math.min(content.length, Reply.KEPT * 4), StandardCharsets.UTF_8);
            return new Reply(r.getStatus(), text, retryAfter(r.getHeaders().get(HttpHeader.RETRY_AFTER), clock.instant()));
        } catch (TimeoutException e) {
            return Reply.failure("no answer within " + endpoint.timeout().toSeconds() + "s");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            return Reply.failure(withoutQuery(endpoint, cause.getClass().getSimpleName() + ": " + cause.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Reply.failure("interrupted");
        }
    }

    /** The client's messages may quote the request's URL; its query (a token, perhaps) is not kept nor logged. */
    private static String withoutQuery(Endpoint endpoint, String message) {
        String query = endpoint.url().getRawQuery();
        return query == null || query.isEmpty() || message == null ? message : message.replace(query, "***");
    }

    /** {@code Retry-After}: seconds, or an HTTP date; empty when absent or unreadable. */
    static Optional<Duration> retryAfter(String value, Instant now) {
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        String v = value.strip();
        if (v.matches("\\d{1,9}")) {
            return Optional.of(Duration.ofSeconds(Long.parseLong(v)));
        }
        try {
            Instant at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            return Optional.of(at.isAfter(now) ? Duration.between(now, at) : Duration.ZERO);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private synchronized HttpClient client(Endpoint endpoint) {
        return clients.computeIfAbsent(endpoint.name(), n -> {
            HttpClient c = new HttpClient();
            c.setFollowRedirects(false);
            c.setSocketAddressResolver(new AddressGuard(endpoint.allowPrivate()));
            c.setConnectTimeout(endpoint.timeout().toMillis());
            c.setMaxConnectionsPerDestination(2);
            c.setUserAgentField(null);
            try {
                c.start();
            } catch (Exception e) {
                throw new IllegalStateException("could not start the HTTP client for endpoint " + n + ": " + e.getMessage(), e);
            }
            return c;
        });
    }

    @Override
    public synchronized void close() {
        for (HttpClient c : clients.values()) {
            try {
                c.stop();
            } catch (Exception e) {
                // stopping a client releases sockets and threads; nothing to report to the operator
            }
        }
        clients.clear();
    }
}
