package dev.mailrun.app.cli;

import dev.mailrun.app.AppContext;
import dev.mailrun.app.ProductionLinks;
import dev.mailrun.app.Services;

/** Base of commands that work through the services (campaigns, imports, sending) over the configuration and the database. */
abstract class ContextCommand extends ConfigCommand {

    @Override
    final int run(AppContext ctx) throws Exception {
        try (Services services = new Services(ctx, ProductionLinks::of)) {
            return run(services);
        }
    }

    /** @return the exit code */
    abstract int run(Services services) throws Exception;
}
