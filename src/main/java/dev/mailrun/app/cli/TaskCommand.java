package dev.mailrun.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mailrun.app.Services;
import dev.mailrun.app.config.Range;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.send.SendTask;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.RecipientStatus;
import dev.mailrun.scheduler.RunOutcome;
import dev.mailrun.scheduler.Task;
import dev.mailrun.scheduler.TaskStore;
import java.io.PrintWriter;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "task", mixinStandardHelpOptions = true,
        description = "Scheduled tasks (the task table): list, enable, disable, remove.",
        subcommands = {TaskCommand.ListTasks.class, TaskCommand.Enable.class, TaskCommand.Disable.class,
                TaskCommand.Remove.class})
final class TaskCommand extends GroupCommand {

    private static final Pattern CAMPAIGN_TASK = Pattern.compile("campaign-(\\d{1,18})");

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = {"Every task: name, handler, interval, enabled, next run and the outcome of its last tick.",
                    "--json prints an array of objects with the same fields."})
    static final class ListTasks extends ContextCommand {
        private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

        @Option(names = "--json", description = "Machine-readable JSON.")
        boolean json;

        @Override
        int run(Services s) throws Exception {
            List<Task> tasks = s.tasks().list();
            Map<String, RunOutcome> last = s.tasks().lastOutcomes();
            if (json) {
                ArrayNode all = JSON.createArrayNode();
                for (Task t : tasks) {
                    ObjectNode n = all.addObject();
                    n.put("name", t.name());
                    n.put("handler", t.handler());
                    n.put("interval_ms", t.interval().toMillis());
                    n.put("enabled", t.enabled());
                    n.put("next_run_at", t.nextRunAt().toString());
                    n.put("last_outcome", Optional.ofNullable(last.get(t.name())).map(RunOutcome::dbValue).orElse(null));
                }
                out().println(JSON.writeValueAsString(all));
                return Cli.OK;
            }
            out().printf("%-24s %-16s %-9s %-8s %-25s %s%n", "NAME", "HANDLER", "INTERVAL", "ENABLED", "NEXT RUN",
                    "LAST OUTCOME");
            for (Task t : tasks) {
                out().printf("%-24s %-16s %-9s %-8s %-25s %s%n", t.name(), t.handler(), Range.format(t.interval()),
                        t.enabled() ? "yes" : "no", t.nextRunAt(),
                        Optional.ofNullable(last.get(t.name())).map(RunOutcome::dbValue).orElse("-"));
            }
            return Cli.OK;
        }
    }

    @Command(name = "enable", mixinStandardHelpOptions = true, description = "Let a disabled task run again at its next slot.")
    static final class Enable extends ContextCommand {
        @Parameters(paramLabel = "NAME", description = "Task name, as task list shows it.") String name;

        @Override
        int run(Services s) throws Exception {
            return setEnabled(s, out(), name, true);
        }
    }

    @Command(name = "disable", mixinStandardHelpOptions = true,
            description = "Stop picking a task; a run in progress finishes. Its schedule and history are kept.")
    static final class Disable extends ContextCommand {
        @Parameters(paramLabel = "NAME", description = "Task name, as task list shows it.") String name;

        @Override
        int run(Services s) throws Exception {
            return setEnabled(s, out(), name, false);
        }
    }

    @Command(name = "remove", mixinStandardHelpOptions = true,
            description = {"Delete a task and its run history.",
                    "A campaign's task goes only once the campaign is completed or cancelled; to stop a campaign, cancel it "
                            + "(campaign cancel ID)."})
    static final class Remove extends ContextCommand {
        @Parameters(paramLabel = "NAME", description = "Task name, as task list shows it.") String name;

        @Override
        int run(Services s) throws Exception {
            Task task = requireTask(s, name);
            Optional<Long> campaign = campaignOf(task);
            if (campaign.isPresent()) {
                requireRemovable(s, task, campaign.get());
            }
            TaskStore.Removal removal = s.tasks().remove(name);
            switch (removal) {
                case REMOVED -> out().println("task " + name + " removed, with its run history");
                case NO_SUCH_TASK -> throw new UsageException(noSuchTask(name));
                case RUN_IN_PROGRESS -> throw new UsageException("task " + name + " has a run in progress; "
                        + "remove it once that run has ended");
            }
            return Cli.OK;
        }

        /** A campaign's task is how it sends: while the campaign can still send, removing it would strand it. */
        private static void requireRemovable(Services s, Task task, long campaignId) throws SQLException {
            Campaign campaign;
            long unknown;
            try {
                campaign = s.campaigns().get(campaignId);
                unknown = s.reports().report(campaignId).counts().get(RecipientStatus.UNKNOWN);
            } catch (CampaignException gone) {
                return; // the campaign no longer exists: nothing depends on its task
            }
            if (!campaign.status().isFinal()) {
                throw new UsageException("task " + task.name() + " sends campaign " + campaignId + ", which is "
                        + campaign.status().dbValue() + "; cancel the campaign instead (mailrun campaign cancel "
                        + campaignId + ")");
            }
            if (campaign.status() == CampaignStatus.COMPLETED && unknown > 0) {
                throw new UsageException("task " + task.name() + " is needed to resend campaign " + campaignId + "'s "
                        + unknown + " recipient(s) of unknown delivery (campaign requeue-unknown " + campaignId
                        + "); it is disabled and can stay");
            }
        }
    }

    private static int setEnabled(Services s, PrintWriter out, String name, boolean enabled) throws SQLException {
        requireTask(s, name);
        s.tasks().setEnabled(name, enabled);
        out.println("task " + name + (enabled ? " enabled" : " disabled"));
        return Cli.OK;
    }

    static Task requireTask(Services s, String name) throws SQLException {
        return s.tasks().find(name).orElseThrow(() -> new UsageException(noSuchTask(name)));
    }

    private static String noSuchTask(String name) {
        return "no task named '" + name + "' (see: mailrun task list)";
    }

    /** The campaign a task sends, for tasks named and handled as {@code campaign-<id>}. */
    static Optional<Long> campaignOf(Task task) {
        Matcher m = CAMPAIGN_TASK.matcher(task.name());
        if (!task.handler().equals(SendTask.NAME) || !m.matches()) {
            return Optional.empty();
        }
        long id = Long.parseLong(m.group(1));
        return SendTask.taskName(id).equals(task.name()) ? Optional.of(id) : Optional.empty();
    }
}
