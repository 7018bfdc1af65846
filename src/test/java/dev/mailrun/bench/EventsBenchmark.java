package dev.mailrun.bench;

import dev.mailrun.db.Transactions;
import dev.mailrun.events.DeliveryListener;
import dev.mailrun.events.Dispatcher;
import dev.mailrun.events.EventOutbox;
import dev.mailrun.events.EventType;
import dev.mailrun.events.EventsSettings;
import dev.mailrun.events.OutboxEvent;
import dev.mailrun.events.RecipientLookup;
import dev.mailrun.events.delivery.Endpoint;
import dev.mailrun.events.delivery.SigningSecret;
import dev.mailrun.events.delivery.TypeFilter;
import dev.mailrun.events.delivery.WebhookClient;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import javax.sql.DataSource;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/**
 * How fast the events dispatcher empties a backlog into a receiver on this machine: the outbox
 * holds {@code events} {@code recipient.sent} events, one {@link Dispatcher} (the worker's) fans
 * them out and delivers them in batches of {@code batch} to an in-process Jetty receiver that
 * verifies every signature, and the row reports events per second and the CPU each event cost this
 * JVM (dispatcher and receiver) and the database server.
 *
 * <p>Why: the dispatcher must keep up with what the sending pipeline writes (1,000 events a second
 * as the target), and its cost per event says what delivering events adds to a worker.
 *
 * <p>Arguments: {@code --events 50000 --batches 100,10,1}.
 */
public final class EventsBenchmark {

    private static final String SECRET = "whsec_" + Base64.getEncoder().encodeToString(
            "a benchmark key of thirty-two b!".getBytes(StandardCharsets.US_ASCII));

    private EventsBenchmark() {}

    public static void main(String[] argv) throws Exception {
        Args args = new Args(argv);
        int events = args.integer("events", 50_000);
        int[] batches = args.integers("batches", 100, 10, 1);
        try (BenchDatabase probe = BenchDatabase.create("mailrun_bench_probe", 1)) {
            System.out.println(Machine.describe(probe.serverVersion(), "in-process Jetty receiver"));
        }
        System.out.printf("%n%,d recipient.sent events per row, delivered to a receiver on 127.0.0.1 that verifies each signature%n%n",
                events);
        System.out.println("| batch | wall s | events/s | requests | " + CpuMeter.header() + " |");
        System.out.println("|---:|---:|---:|---:|---|");
        for (int batch : batches) {
            row(events, batch);
        }
    }

    private static void row(int events, int batch) throws Exception {
        try (BenchDatabase db = BenchDatabase.create("mailrun_bench_events", 4); Receiver receiver = new Receiver();
             WebhookClient client = new WebhookClient(Clock.systemUTC())) {
            DataSource ds = db.dataSource();
            write(ds, events);
            Endpoint endpoint = new Endpoint("bench", URI.create(receiver.url()), SigningSecret.parse(SECRET), TypeFilter.parse("*"),
                    batch, Duration.ofSeconds(10), Duration.ofDays(3), true, true);
            Dispatcher dispatcher = new Dispatcher(ds, new EventsSettings(List.of(endpoint), false, Duration.ofSeconds(1),
                    Duration.ofDays(30)), Clock.systemUTC(), client, RecipientLookup.NONE, DeliveryListener.NONE, new Random(1));
            CpuMeter meter = CpuMeter.forServerOf(ProcessHandle.current().pid(), ds);
            CpuMeter.Reading before = meter.read();
            long start = System.nanoTime();
            while (pending(ds) > 0 || receiver.events.get() == 0) {
                dispatcher.pass();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            CpuMeter.Usage usage = meter.read().since(before, events);
            if (receiver.events.get() != events || receiver.bad.get() != 0) {
                throw new IllegalStateException("receiver took " + receiver.events.get() + " of " + events + " events, "
                        + receiver.bad.get() + " with a bad signature");
            }
            System.out.printf("| %d | %.1f | %,.0f | %,d | %s |%n", batch, seconds, events / seconds, receiver.requests.get(),
                    usage.cells());
        }
    }

    private static void write(DataSource ds, int events) throws Exception {
        dev.mailrun.testing.Subscribed.toEverything(ds);
        EventOutbox outbox = new EventOutbox();
        for (int from = 0; from < events; from += 500) {
            List<OutboxEvent> part = new ArrayList<>();
            for (int i = from; i < Math.min(events, from + 500); i++) {
                part.add(OutboxEvent.of(EventType.RECIPIENT_SENT, 1L, (long) i + 1, "r" + i + "@list.example",
                        OutboxEvent.fields("message_id", "<" + i + "@bench.example>", "relay", "default")));
            }
            Transactions.inTransaction(ds, c -> {
                outbox.write(c, part, java.time.Instant.now());
                return null;
            });
        }
    }

    private static long pending(DataSource ds) throws Exception {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("""
                SELECT (SELECT COUNT(*) FROM event_outbox WHERE fanned_out = 0)
                     + (SELECT COUNT(*) FROM event_delivery WHERE status = 'pending')""");
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Verifies each request's signature as the Standard Webhooks specification says and counts the events. */
    private static final class Receiver implements AutoCloseable {

        private final Server server = new Server();
        final AtomicLong events = new AtomicLong();
        final AtomicLong requests = new AtomicLong();
        final AtomicLong bad = new AtomicLong();
        private final byte[] key = Base64.getDecoder().decode(SECRET.substring(6));

        Receiver() throws Exception {
            ServerConnector connector = new ServerConnector(server);
            connector.setHost("127.0.0.1");
            connector.setPort(0);
            server.addConnector(connector);
            server.setHandler(new Handler.Abstract() {
                @Override
                public boolean handle(Request request, Response response, Callback callback) throws Exception {
                    String body = Content.Source.asString(request, StandardCharsets.UTF_8);
                    String id = request.getHeaders().get("webhook-id");
                    String ts = request.getHeaders().get("webhook-timestamp");
                    Mac mac = Mac.getInstance("HmacSHA256");
                    mac.init(new SecretKeySpec(key, "HmacSHA256"));
                    byte[] expected = mac.doFinal((id + "." + ts + "." + body).getBytes(StandardCharsets.UTF_8));
                    String sig = request.getHeaders().get("webhook-signature");
                    if (sig == null || !MessageDigest.isEqual(expected, Base64.getDecoder().decode(sig.substring(3)))) {
                        bad.incrementAndGet();
                    }
                    requests.incrementAndGet();
                    // One "id" per event: counted without parsing the JSON.
                    events.addAndGet(body.split("\"id\":", -1).length - 1);
                    response.setStatus(200);
                    Content.Sink.write(response, true, "ok", callback);
                    return true;
                }
            });
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + ((ServerConnector) server.getConnectors()[0]).getLocalPort() + "/events";
        }

        @Override
        public void close() throws Exception {
            server.stop();
        }
    }
}
