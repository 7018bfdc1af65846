package dev.mailrun.fault;

import static dev.mailrun.fault.KillNineTest.waitFor;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.unsubscribe.SigningKey;
import dev.mailrun.campaign.unsubscribe.UnsubscribeTokens;
import dev.mailrun.http.server.SlowClients;
import dev.mailrun.testing.TestDatabase;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A real {@code mailrun worker} (or {@code serve}) serving unsubscribes gets SIGTERM while slow clients
 * keep the HTTP server busy (request lines, headers and POST bodies trickled a byte at a time, never
 * finished): the HTTP server stops gracefully and the process exits within {@code tick.shutdown-grace}.
 */
class WorkerHttpStopTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Duration GRACE = Duration.ofSeconds(4);

    @Test
    void sigterm_stops_the_worker_and_its_http_endpoint_within_the_grace_while_slow_clients_trickle() throws Exception {
        String log = stopWithSlowClients("worker");

        assertThat(log).contains("Worker stopped");
    }

    @Test
    void sigterm_stops_serve_within_the_grace_after_its_graceful_stop_while_slow_clients_trickle() throws Exception {
        stopWithSlowClients("serve");
    }

    /** Starts the command, holds 60 slow clients on its HTTP port, sends SIGTERM; returns the process's log. */
    private static String stopWithSlowClients(String command) throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Map<String, String> env = WorkerProcess.env(db, 1, "0");
        env.put("MAILRUN_HTTP_PORT", Integer.toString(port));
        env.put("MAILRUN_TICK_SHUTDOWN_GRACE", GRACE.toSeconds() + "s");
        String token = new UnsubscribeTokens(SigningKey.of(env.get("MAILRUN_UNSUBSCRIBE_SECRET"))).token(1, 1, "slow@example.com");

        ScheduledExecutorService trickler = Executors.newSingleThreadScheduledExecutor();
        try (WorkerProcess process = WorkerProcess.start("http-stop-" + command, env, command)) {
            waitFor(() -> listening(port), Duration.ofSeconds(60));
            try (SlowClients slow = SlowClients.open(new InetSocketAddress("127.0.0.1", port), 60, "/u/" + token)) {
                trickler.scheduleWithFixedDelay(slow::trickle, 0, 100, TimeUnit.MILLISECONDS);
                Thread.sleep(300);   // let the POST heads reach the handler, so that they are requests in flight

                long start = System.nanoTime();
                boolean exited = process.stop();
                long millis = (System.nanoTime() - start) / 1_000_000;
                trickler.shutdownNow();
                String log = Files.readString(process.log);
                System.out.println("[fault] " + command + " with 60 slow HTTP clients exited " + millis
                        + " ms after SIGTERM (grace " + GRACE.toMillis() + " ms)");

                assertThat(exited).isTrue();
                assertThat(millis).as(log).isLessThan(GRACE.toMillis());
                assertThat(log).contains("HTTP endpoint on 127.0.0.1:" + port + " /u/*, /w/*, /p/* stopped");
                return log;
            }
        } finally {
            trickler.shutdownNow();
        }
    }

    private static boolean listening(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException notYet) {
            return false;
        }
    }
}
