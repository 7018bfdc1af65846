package dev.mailrun.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/**
 * A receiver of events over a real socket: verifies each request's Standard Webhooks signature with
 * the specification's algorithm (written here independently of the sender), records the events it
 * accepted (all of them, and the ids it deduplicates by), and can be told to answer with a status
 * (500, 429 with Retry-After, 410), or to hang until released.
 */
public final class Receiver implements AutoCloseable {

    public static final String SECRET = "whsec_" + Base64.getEncoder().encodeToString("a test key of thirty-two bytes!!".getBytes(StandardCharsets.US_ASCII));
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One event as accepted: its id, type and data. */
    public record Got(String id, String type, JsonNode data) {}

    private final Server server = new Server();
    private final List<Got> accepted = new ArrayList<>();
    private final Set<String> applied = new LinkedHashSet<>();
    private final List<String> badSignatures = new ArrayList<>();
    private final List<String> bodies = new ArrayList<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();
    private final AtomicInteger requests = new AtomicInteger();
    private volatile int status = 200;
    private volatile String retryAfter;
    private volatile CountDownLatch hang;
    private volatile Runnable onRequest = () -> {};

    public Receiver() throws Exception {
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                return Receiver.this.handle(request, response, callback);
            }
        });
        server.start();
    }

    public String url() {
        return "http://127.0.0.1:" + ((ServerConnector) server.getConnectors()[0]).getLocalPort() + "/hooks?token=t";
    }

    /** From now on answer {@code code} (200: accept), with {@code retryAfter} if not null. */
    public void answer(int code, String retryAfterValue) {
        this.status = code;
        this.retryAfter = retryAfterValue;
    }

    /** Runs {@code action} while each request is being answered (before the answer goes out). */
    public void onRequest(Runnable action) {
        this.onRequest = action;
    }

    /** Requests wait until {@link #release()}. */
    void hang() {
        hang = new CountDownLatch(1);
    }

    void release() {
        CountDownLatch h = hang;
        hang = null;
        if (h != null) {
            h.countDown();
        }
    }

    private boolean handle(Request request, Response response, Callback callback) throws Exception {
        int now = inFlight.incrementAndGet();
        maxInFlight.accumulateAndGet(now, Math::max);
        requests.incrementAndGet();
        try {
            String body = Content.Source.asString(request, StandardCharsets.UTF_8);
            CountDownLatch h = hang;
            if (h != null) {
                h.await();
            }
            onRequest.run();
            String id = request.getHeaders().get("webhook-id");
            String ts = request.getHeaders().get("webhook-timestamp");
            String sig = request.getHeaders().get("webhook-signature");
            if (!verifies(id, ts, body, sig)) {
                synchronized (this) {
                    badSignatures.add(id);
                }
                response.setStatus(401);
                Content.Sink.write(response, true, "bad signature", callback);
                return true;
            }
            int code = status;
            if (code == 200) {
                JsonNode root = JSON.readTree(body);
                List<JsonNode> events = new ArrayList<>();
                if (root.has("events")) {
                    root.get("events").forEach(events::add);
                } else {
                    events.add(root);
                }
                synchronized (this) {
                    bodies.add(body);
                    for (JsonNode e : events) {
                        accepted.add(new Got(e.get("id").asText(), e.get("type").asText(), e.get("data")));
                        applied.add(e.get("id").asText());
                    }
                }
            }
            response.setStatus(code);
            if (retryAfter != null) {
                response.getHeaders().put("Retry-After", retryAfter);
            }
            Content.Sink.write(response, true, code == 200 ? "ok" : "answer " + code, callback);
            return true;
        } finally {
            inFlight.decrementAndGet();
        }
    }

    /** The specification's verification: HMAC-SHA256 over "id.timestamp.body" with the base64 key after whsec_. */
    static boolean verifies(String id, String ts, String body, String header) throws Exception {
        if (id == null || ts == null || header == null) {
            return false;
        }
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(Base64.getDecoder().decode(SECRET.substring("whsec_".length())), "HmacSHA256"));
        byte[] expected = mac.doFinal((id + "." + ts + "." + body).getBytes(StandardCharsets.UTF_8));
        for (String part : header.split(" ")) {
            if (part.startsWith("v1,") && MessageDigest.isEqual(expected, Base64.getDecoder().decode(part.substring(3)))) {
                return true;
            }
        }
        return false;
    }

    public synchronized List<Got> accepted() {
        return List.copyOf(accepted);
    }

    /** The ids applied once each, as a receiver deduplicating by id does. */
    public synchronized Set<String> applied() {
        return Set.copyOf(applied);
    }

    /** The bodies of the requests accepted, as received. */
    public synchronized List<String> bodies() {
        return List.copyOf(bodies);
    }

    public synchronized List<String> badSignatures() {
        return List.copyOf(badSignatures);
    }

    int maxInFlight() {
        return maxInFlight.get();
    }

    public int requests() {
        return requests.get();
    }

    @Override
    public void close() throws Exception {
        release();
        server.stop();
    }
}
