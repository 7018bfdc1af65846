package dev.mailrun.app.cli;

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
        try (Scheduler scheduler = s.scheduler()) {
            Runtime.getRuntime().addShutdownHook(new Thread(scheduler::requestStop, "mailrun-tick-stop"));
            TickSummary summary = scheduler.tick();
            for (TickSummary.Entry e : summary.entries()) {
                out().println(e.taskName() + ": " + e.outcome().dbValue() + (e.detail().isEmpty() ? "" : " (" + e.detail() + ")"));
            }
            if (summary.entries().isEmpty()) {
                out().println("nothing due");
            }
            return Cli.OK;
        }
    }
}
