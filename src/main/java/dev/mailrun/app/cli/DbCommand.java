package dev.mailrun.app.cli;

import dev.mailrun.app.AppContext;
import dev.mailrun.campaign.content.Contents;
import dev.mailrun.campaign.content.PinnedTemplates;
import dev.mailrun.campaign.content.TemplateStore;
import dev.mailrun.campaign.content.UpgradePins;
import dev.mailrun.db.Migrations;
import dev.mailrun.mail.template.TemplateLoader;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import picocli.CommandLine.Command;

@Command(name = "db", mixinStandardHelpOptions = true, description = "Database schema.",
        subcommands = {DbCommand.Migrate.class, DbCommand.Status.class})
final class DbCommand extends GroupCommand {

    @Command(name = "migrate", mixinStandardHelpOptions = true,
            description = "Apply the schema migrations in sql/ (a no-op when already current).")
    static final class Migrate extends ConfigCommand {
        @Override
        int run(AppContext ctx) {
            Migrations.Run run = new Migrations(ctx.rawDataSource()).apply();
            out().println(said(run) + " (" + ctx.describeDatabase() + ").");
            UpgradePins.Report pins = upgradePins(ctx);
            if (!pins.pinned().isEmpty()) {
                out().println("Pinned " + pins.pinned().size() + " campaign(s) to their template's text in templates.dir ("
                        + ctx.config().templatesDir() + "):");
                pins.pinned().forEach(line -> out().println("  " + line));
            }
            pins.left().forEach(line -> out().println("Not pinned, " + line));
            return Cli.OK;
        }

        /** Campaigns created before templates were stored are pinned to what this host's templates.dir holds now. */
        private static UpgradePins.Report upgradePins(AppContext ctx) {
            DataSource ds = ctx.rawDataSource();
            Contents contents = new Contents(ds, new TemplateStore(ds, ctx.clock(), ctx.config().content().maxTemplateBytes()),
                    new TemplateLoader(ctx.config().templatesDir()), new PinnedTemplates(ds, ctx.clock()));
            try {
                return new UpgradePins(ds, contents, ctx.clock()).pinAll();
            } catch (SQLException e) {
                throw new IllegalStateException("pinning the campaigns created before templates were stored failed: "
                        + e.getMessage(), e);
            }
        }

        /** The versions, and the count only beside them: a count that differs from the version reads as a mistake. */
        static String said(Migrations.Run run) {
            if (run.applied().isEmpty()) {
                return "Schema already current at version " + run.to();
            }
            int n = run.applied().size();
            String from = run.from().equals(Migrations.SchemaStatus.EMPTY) ? "no schema" : "version " + run.from();
            String versions = n == 1 ? "version " + run.applied().get(0)
                    : n + " migrations, versions " + run.applied().get(0) + " to " + run.applied().get(n - 1);
            List<Integer> gaps = run.gaps();
            String missing = gaps.isEmpty() ? ""
                    : "; there is no version " + gaps.stream().map(String::valueOf).collect(Collectors.joining(", "));
            return "Migrated the schema from " + from + " to version " + run.to() + ": applied " + versions + missing;
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
