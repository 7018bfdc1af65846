package dev.mailrun.app.cli;

import dev.mailrun.app.AppContext;
import dev.mailrun.db.Migrations;
import picocli.CommandLine.Command;

@Command(name = "db", mixinStandardHelpOptions = true, description = "Database schema.",
        subcommands = {DbCommand.Migrate.class, DbCommand.Status.class})
final class DbCommand extends GroupCommand {

    @Command(name = "migrate", mixinStandardHelpOptions = true,
            description = "Apply the schema migrations in sql/ (a no-op when already current).")
    static final class Migrate extends ConfigCommand {
        @Override
        int run(AppContext ctx) {
            Migrations migrations = new Migrations(ctx.rawDataSource());
            int applied = migrations.migrate();
            Migrations.SchemaStatus status = migrations.status();
            out().println(applied == 0
                    ? "Schema already current at version " + status.current() + " (" + ctx.describeDatabase() + ")."
                    : "Applied " + applied + (applied == 1 ? " migration" : " migrations") + "; the schema is now at version "
                            + status.current() + " (" + ctx.describeDatabase() + ").");
            return Cli.OK;
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true, description = "Show the schema version and pending migrations.")
    static final class Status extends ConfigCommand {
        @Override
        int run(AppContext ctx) {
            Migrations.SchemaStatus status = new Migrations(ctx.rawDataSource()).status();
            out().println("database: " + ctx.describeDatabase());
            out().println("schema: " + status.describeCurrent() + " (latest version " + status.latest() + ", "
                    + status.pending() + " pending)");
            return Cli.OK;
        }
    }
}
