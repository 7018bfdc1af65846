package dev.mailrun.app.cli;

import dev.mailrun.app.AppContext;
import java.io.PrintWriter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * Base of commands that run with the configuration and the database. Schema and template commands
 * use this alone; {@link ContextCommand} adds the services most commands work through.
 */
abstract class ConfigCommand implements java.util.concurrent.Callable<Integer> {

    @Spec
    CommandSpec spec;

    /** The root command, found through the parent chain (commands nest up to two levels). */
    MailrunCommand root() {
        CommandSpec s = spec;
        while (s.parent() != null) {
            s = s.parent();
        }
        return (MailrunCommand) s.userObject();
    }

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    @Override
    public final Integer call() throws Exception {
        try (AppContext ctx = root().context()) {
            return run(ctx);
        }
    }

    /** @return the exit code */
    abstract int run(AppContext ctx) throws Exception;
}
