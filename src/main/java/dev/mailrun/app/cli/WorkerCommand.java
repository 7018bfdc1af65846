package dev.mailrun.app.cli;

import dev.mailrun.app.HttpEndpoint;
import dev.mailrun.app.MailboxTasks;
import dev.mailrun.app.RelayConfigBeacon;
import dev.mailrun.app.Services;
import dev.mailrun.app.config.Range;
import dev.mailrun.events.DispatcherThread;
import dev.mailrun.scheduler.Scheduler;
import dev.mailrun.scheduler.Sleeper;
import dev.mailrun.scheduler.Worker;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;

@Command(name = "worker", mixinStandardHelpOptions = true,
        description = {"Fire a tick every tick.interval, aligned to the clock, until SIGTERM or SIGINT.",
                "On a signal the running task checkpoints and stops within tick.shutdown-grace.",
                "With http.port set it also serves the unsubscribe endpoint, with admin.port the admin listener "
                        + "(/metrics, /health/live, /health/ready, /status, /status.json); both stop within the same grace.",
                "A dispatcher thread delivers the events (docs/EVENTS.md) every events.poll."})
final class WorkerCommand extends ContextCommand {

    private static final Logger log = LoggerFactory.getLogger(WorkerCommand.class);

    @Override
    int run(Services s) throws Exception {
        Duration grace = s.config().tick().shutdownGrace();
        CountDownLatch finished = new CountDownLatch(1);
        MailboxTasks.register(s);
        try (Scheduler scheduler = s.scheduler();
             RelayConfigBeacon relayConfigs = s.relayConfigBeacon();
             HttpEndpoint endpoint = HttpEndpoint.configured(s) ? HttpEndpoint.start(s, true) : HttpEndpoint.none();
             DispatcherThread events = DispatcherThread.start(s.dispatcher(), s.config().events().poll())) {
            Worker worker = new Worker(scheduler, s.config().tick().interval(), s.clock(), Sleeper.onClock(s.clock()),
                    s.heartbeat());
            Thread hook = new Thread(() -> {
                log.info("Stopping: the running task checkpoints and releases its lease (at most {})", grace);
                // Side by side with the worker, so that both end within the one grace period; the main
                // thread's close() then waits for this stop before the database goes.
                Thread http = new Thread(endpoint::close, "mailrun-http-stop");
                http.start();
                worker.shutdown(grace);
                try {
                    // Let the main thread close the pool and the embedded database before the JVM exits.
                    finished.await(grace.toMillis() + 5_000, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "mailrun-shutdown");
            Runtime.getRuntime().addShutdownHook(hook);
            log.info("Worker started: a tick every {} on aligned slots{}{}{}", Range.format(s.config().tick().interval()),
                    endpoint.port().map(p -> ", unsubscribe endpoint on port " + p).orElse(""),
                    endpoint.adminPort().map(p -> ", admin listener on port " + p).orElse(""),
                    s.config().events().endpoints().isEmpty() ? "" : ", events to " + String.join(",",
                            s.config().events().endpoints().stream().map(e -> e.name()).toList()));
            try {
                // The loop runs on its own thread: the shutdown hook joins it, and must never join
                // this thread, which ends in System.exit and would wait for the hook in turn.
                worker.start().join();
            } finally {
                ShutdownHooks.remove(hook);
            }
            log.info("Worker stopped");
            return Cli.OK;
        } finally {
            finished.countDown();
        }
    }

}
