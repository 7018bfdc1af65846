package dev.mailrun.app.cli;

import dev.mailrun.app.HttpEndpoint;
import dev.mailrun.app.Services;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;

@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Serve only the HTTP listeners, without sending, until SIGTERM or SIGINT.",
                "The public endpoint listens on http.bind:http.port (unsubscribe, provider webhooks) and, with admin.port "
                        + "set, the admin listener (metrics, health probes, status page). On a signal it lets requests in "
                        + "flight finish and stops within tick.shutdown-grace."})
final class ServeCommand extends ContextCommand {

    @Override
    int run(Services s) throws Exception {
        if (!HttpEndpoint.configured(s)) {
            throw new UsageException("http.port or admin.port must be set for serve");
        }
        Duration grace = s.config().tick().shutdownGrace();
        CountDownLatch stop = new CountDownLatch(1);
        CountDownLatch finished = new CountDownLatch(1);
        try (HttpEndpoint endpoint = HttpEndpoint.start(s)) {
            // The hook waits for the graceful stop below: the JVM would otherwise exit halfway through it.
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                stop.countDown();
                try {
                    finished.await(grace.toMillis() + 5_000, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "mailrun-serve-stop"));
            endpoint.port().ifPresent(p -> err().println("serving unsubscribe requests on " + s.config().httpBind() + ":" + p));
            endpoint.adminPort().ifPresent(p -> err().println("serving the admin listener on " + s.config().admin().bind() + ":" + p));
            stop.await();
        } finally {
            finished.countDown();
        }
        return Cli.OK;
    }
}
