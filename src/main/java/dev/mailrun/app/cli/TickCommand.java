package dev.mailrun.app.cli;

import dev.mailrun.app.MailboxTasks;
import dev.mailrun.app.Services;
import dev.mailrun.scheduler.Scheduler;
import dev.mailrun.scheduler.TickSummary;
import picocli.CommandLine.Command;

@Command(name = "tick", mixinStandardHelpOptions = true,
        description = {"Run one tick — every due task — then exit: for cron or a systemd timer.",
                "Exit 0 when it ran or had nothing to do; runs never overlap with a worker or another tick."})
final class TickCommand extends ContextCommand {

    @Override
    int run(Services s) throws Exception {
        java.util.concurrent.CountDownLatch finished = new java.util.concurrent.CountDownLatch(1);
        java.time.Duration grace = s.config().tick().shutdownGrace();
        MailboxTasks.register(s);
        try (Scheduler scheduler = s.scheduler()) {
            // SIGTERM/SIGINT: the running task checkpoints and releases its lease before the JVM exits.
            Thread hook = new Thread(() -> {
                scheduler.shutdown(grace);
                try {
                    finished.await(grace.toMillis() + 5_000, java.util.concurrent.TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "mailrun-tick-stop");
            Runtime.getRuntime().addShutdownHook(hook);
            TickSummary summary;
            try {
                summary = scheduler.tick();
            } finally {
                ShutdownHooks.remove(hook);
            }
            for (TickSummary.Entry e : summary.entries()) {
                out().println(e.taskName() + ": " + e.outcome().dbValue() + (e.detail().isEmpty() ? "" : " (" + e.detail() + ")"));
            }
            if (summary.entries().isEmpty()) {
                out().println("nothing due");
            }
            return Cli.OK;
        } finally {
            finished.countDown();
        }
    }
}
