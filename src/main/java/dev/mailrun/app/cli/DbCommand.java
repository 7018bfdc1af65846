package dev.mailrun.app.cli;

import dev.mailrun.app.AppContext;
import dev.mailrun.db.Migrations;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(name = "db", mixinStandardHelpOptions = true, description = "Database schema.",
        subcommands = {DbCommand.Migrate.class, DbCommand.Status.class})
final class DbCommand implements Runnable {

    @ParentCommand
    MailrunCommand root;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(name = "migrate", mixinStandardHelpOptions = true,
            description = "Apply the schema migrations in sql/ (a no-op when already current).")
    static final class Migrate implements Runnable {
        @ParentCommand
        DbCommand db;

        @Spec
        CommandSpec spec;

        @Override
        public void run() {
            PrintWriter out = spec.commandLine().getOut();
            try (AppContext ctx = db.root.context()) {
                Migrations migrations = new Migrations(ctx.rawDataSource());
                int applied = migrations.migrate();
                Migrations.SchemaStatus status = migrations.status();
                out.println(applied == 0
                        ? "Schema already current at version " + status.current() + " (" + ctx.describeDatabase() + ")."
                        : "Applied " + applied + (applied == 1 ? " migration" : " migrations") + "; the schema is now at version "
                                + status.current() + " (" + ctx.describeDatabase() + ").");
            }
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true, description = "Show the schema version and pending migrations.")
    static final class Status implements Runnable {
        @ParentCommand
        DbCommand db;

        @Spec
        CommandSpec spec;

        @Override
        public void run() {
            PrintWriter out = spec.commandLine().getOut();
            try (AppContext ctx = db.root.context()) {
                Migrations.SchemaStatus status = new Migrations(ctx.rawDataSource()).status();
                out.println("database: " + ctx.describeDatabase());
                out.println("schema: " + status.describeCurrent() + " (latest version " + status.latest() + ", "
                        + status.pending() + " pending)");
            }
        }
    }
}
