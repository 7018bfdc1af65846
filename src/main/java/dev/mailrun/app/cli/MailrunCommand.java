package dev.mailrun.app.cli;

import dev.mailrun.app.AppContext;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

@Command(name = "mailrun",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Bulk email campaign worker: timeboxed, checkpointed sending driven by a task table.",
        subcommands = {DbCommand.class, TemplateCommand.class, CampaignCommand.class, RecipientsCommand.class,
                SuppressionsCommand.class, ListsCommand.class, SubscribersCommand.class, SegmentsCommand.class, EventsCommand.class, TaskCommand.class,
                WorkerCommand.class, TickCommand.class,
                SendTestCommand.class, ServeCommand.class, DemoCommand.class, ApiTokenCommand.class, AuditCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "1:runtime failure", "2:usage or configuration error"})
public final class MailrunCommand implements Runnable {

    private final Map<String, String> env;
    private final Clock clock;

    @Option(names = "--config", paramLabel = "FILE", scope = ScopeType.INHERIT,
            description = "Properties file (default: ./mailrun.properties when present). "
                    + "Every key can be overridden by MAILRUN_<KEY> environment variables.")
    Path configFile;

    @Option(names = "--verbose", scope = ScopeType.INHERIT, description = "Print stack traces with errors.")
    boolean verbose;

    MailrunCommand(Map<String, String> env, Clock clock) {
        this.env = env;
        this.clock = clock;
    }

    boolean verbose() {
        return verbose;
    }

    /** Loads and validates the configuration; the caller closes the context. */
    AppContext context() {
        return AppContext.load(Optional.ofNullable(configFile), env, clock);
    }

    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this), "a command is required (see mailrun --help)");
    }
}
