package dev.mailrun.app.cli;

import dev.mailrun.app.AppContext;
import dev.mailrun.app.Demo;
import dev.mailrun.db.Migrations;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Run a whole campaign against an SMTP server inside this process.",
                "It uses the configured database (by default the embedded one): generated recipients, several timeboxed runs "
                        + "under a rate limit, then a summary read back from the database and from the SMTP server. "
                        + "Same code paths as production."})
final class DemoCommand implements java.util.concurrent.Callable<Integer> {

    @ParentCommand
    MailrunCommand root;

    @Spec
    CommandSpec spec;

    @Option(names = "--size", paramLabel = "N", description = "Recipients to generate (default ${DEFAULT-VALUE}).")
    int size = 5_000;

    @Option(names = "--rate", paramLabel = "R", description = "Messages per second (default ${DEFAULT-VALUE}).")
    double rate = 50;

    @Option(names = "--interval", paramLabel = "SECONDS", description = "Tick interval in seconds (default ${DEFAULT-VALUE}).")
    int interval = 10;

    @Option(names = "--connections", paramLabel = "N", description = "SMTP connections (default ${DEFAULT-VALUE}).")
    int connections = 4;

    @Option(names = "--dir", paramLabel = "DIR", description = "Where the generated CSV and rejects go (default ${DEFAULT-VALUE}).")
    Path dir = Path.of("data", "demo");

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Demo.Options options;
        try {
            options = new Demo.Options(size, rate, Duration.ofSeconds(interval), connections);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        java.nio.file.Files.createDirectories(dir);
        try (AppContext ctx = root.context()) {
            Migrations migrations = new Migrations(ctx.rawDataSource());
            migrations.migrate();
            out.println("Database: " + ctx.describeDatabase() + ", schema " + migrations.status().describeCurrent() + ".");
            out.printf("Demo: %d recipients, %.0f messages/s over %d connections, a tick every %d s (each run is timeboxed to its slot).%n",
                    size, rate, connections, interval);
            out.flush();
            Progress progress = Progress.on(spec.commandLine().getErr(), "demo");
            Demo.Result result;
            try {
                result = new Demo(ctx, options, progress::show, line -> {
                    out.println(line);
                    out.flush();
                }).run(dir);
            } finally {
                progress.done();
            }
            Demo.print(result, out);
            return result.ok() ? Cli.OK : Cli.RUNTIME_FAILURE;
        }
    }
}
