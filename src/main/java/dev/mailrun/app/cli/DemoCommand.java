package dev.mailrun.app.cli;

import dev.mailrun.app.AppContext;
import dev.mailrun.db.Migrations;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Run a whole campaign on the embedded database and an in-process SMTP server.")
final class DemoCommand implements Runnable {

    @ParentCommand
    MailrunCommand root;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        PrintWriter out = spec.commandLine().getOut();
        try (AppContext ctx = root.context()) {
            Migrations migrations = new Migrations(ctx.rawDataSource());
            migrations.migrate();
            Migrations.SchemaStatus status = migrations.status();
            out.println("Database: " + ctx.describeDatabase() + ", schema version " + status.current() + ".");
            out.println("Sending is not built yet: the demo campaign arrives with the campaign and CLI work.");
        }
    }
}
