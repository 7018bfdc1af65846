package dev.mailrun.app.cli;

import dev.mailrun.app.AppContext;
import dev.mailrun.app.config.MailrunConfig;
import dev.mailrun.mail.template.LoadResult;
import dev.mailrun.mail.template.MergeFields;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.mail.template.TemplateProblem;
import java.io.PrintWriter;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "template", mixinStandardHelpOptions = true,
        description = "Message templates: check a folder, store versions in the database and read them back.",
        subcommands = {TemplateCommand.Check.class, StoredTemplateCommands.Import.class, StoredTemplateCommands.ListStored.class,
                StoredTemplateCommands.Versions.class, StoredTemplateCommands.Show.class, StoredTemplateCommands.Diff.class,
                StoredTemplateCommands.Export.class, StoredTemplateCommands.Delete.class})
final class TemplateCommand extends GroupCommand {

    @Command(name = "check", mixinStandardHelpOptions = true,
            description = {"Compile a template and report every problem as file:line:column: message.",
                    "Exit 0 when it is usable, 1 when it has problems."})
    static final class Check extends ConfigCommand {

        @Parameters(paramLabel = "NAME", description = "Template folder name under templates.dir.")
        String name;

        @Option(names = "--fields", split = ",", paramLabel = "COLUMN",
                description = "Imported columns the recipients will have (besides email and name).")
        List<String> fields = List.of();

        @Override
        int run(AppContext ctx) {
            PrintWriter out = out();
            MailrunConfig config = ctx.config();
            TemplateLoader loader = new TemplateLoader(config.templatesDir());
            Set<String> available = MergeFields.available(new LinkedHashSet<>(fields));
            List<TemplateProblem> problems = loader.check(name, available);
            if (!problems.isEmpty()) {
                problems.forEach(p -> out.println(p.toString()));
                out.println(problems.size() + " problem(s) in template " + name);
                return Cli.RUNTIME_FAILURE;
            }
            LoadResult loaded = loader.load(name);
            Set<String> required = ((LoadResult.Loaded) loaded).template().requiredColumns();
            out.println("template " + name + ": OK; columns every recipient needs (used without a default): "
                    + (required.isEmpty() ? "none" : String.join(", ", required)));
            return Cli.OK;
        }
    }
}
