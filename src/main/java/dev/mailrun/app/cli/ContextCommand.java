package dev.mailrun.app.cli;

import dev.mailrun.app.AppContext;
import dev.mailrun.app.ProductionLinks;
import dev.mailrun.app.Services;
import java.io.PrintWriter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Base of commands that run with the configuration and the database. */
abstract class ContextCommand implements java.util.concurrent.Callable<Integer> {

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
        try (AppContext ctx = root().context(); Services services = new Services(ctx, ProductionLinks::of)) {
            return run(services);
        }
    }

    abstract int run(Services services) throws Exception;
}
