package dev.mailrun.app.cli;

import dev.mailrun.app.Services;
import dev.mailrun.campaign.Templates;
import dev.mailrun.campaign.content.TemplateStore.Saved;
import dev.mailrun.campaign.content.TemplateStore;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.store.TemplateTable.Stored;
import dev.mailrun.campaign.store.TemplateTable.Version;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.mail.template.TemplateSource;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The {@code template} subcommands over the stored templates (docs/CONTENT.md). */
final class StoredTemplateCommands {

    private StoredTemplateCommands() {}

    /** Who saves from the command line: the operating-system user, as the audit of a stored version. */
    static String savedBy() {
        return "cli:" + System.getProperty("user.name", "unknown");
    }

    @Command(name = "import", mixinStandardHelpOptions = true,
            description = {"Store templates.dir's template NAME (or every template in it) as a new version when its text "
                    + "differs from the stored latest one.",
                    "A template that does not compile is not stored: every problem is printed as part:line:column: message "
                            + "and the exit status is 1."})
    static final class Import extends ContextCommand {

        @Parameters(arity = "0..1", paramLabel = "NAME", description = "One template folder under templates.dir; none: all of them.")
        String name;

        @Override
        int run(Services s) throws Exception {
            PrintWriter out = out();
            TemplateLoader loader = new TemplateLoader(s.config().templatesDir());
            List<String> names = name != null ? List.of(name) : new Templates(s.config().templatesDir()).folders();
            if (names.isEmpty()) {
                throw new UsageException("no template folders under templates.dir (" + s.config().templatesDir() + ")");
            }
            TemplateStore store = s.templateStore();
            int refused = 0;
            for (String n : names) {
                TemplateLoader.Read read = loader.read(n);
                Saved saved = read.problems().isEmpty() ? store.save(read.source(), savedBy())
                        : new Saved.Refused(n, read.problems());
                if (saved instanceof Saved.NewVersion v) {
                    out.println("template " + v.name() + ": stored version " + v.version() + (v.created() ? " (new template)" : ""));
                } else if (saved instanceof Saved.Unchanged u) {
                    out.println("template " + u.name() + ": unchanged (version " + u.version() + ")");
                } else if (saved instanceof Saved.Refused r) {
                    refused++;
                    r.problems().forEach(p -> out.println(p.toString()));
                    out.println("template " + r.name() + ": not stored, " + r.problems().size() + " problem(s)");
                }
            }
            return refused == 0 ? Cli.OK : Cli.RUNTIME_FAILURE;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "The stored templates with their latest version.")
    static final class ListStored extends ContextCommand {

        @Override
        int run(Services s) throws Exception {
            PrintWriter out = out();
            List<Stored> all = s.templateStore().list();
            out.printf("%-32s %-8s %s%n", "NAME", "LATEST", "UPDATED");
            for (Stored t : all) {
                out.printf("%-32s %-8d %s%n", t.name(), t.latestVersion(), t.updatedAt());
            }
            return Cli.OK;
        }
    }

    @Command(name = "versions", mixinStandardHelpOptions = true,
            description = "The versions of a stored template, newest first: subject, who saved it and when.")
    static final class Versions extends ContextCommand {

        @Parameters(paramLabel = "NAME", description = "A stored template's name.")
        String name;

        @Override
        int run(Services s) throws Exception {
            PrintWriter out = out();
            out.printf("%-8s %-24s %-24s %s%n", "VERSION", "SAVED AT", "SAVED BY", "SUBJECT");
            for (Version v : s.templateStore().versions(name)) {
                out.printf("%-8d %-24s %-24s %s%n", v.version(), v.savedAt(), v.savedBy(), v.subject().strip());
            }
            return Cli.OK;
        }
    }

    @Command(name = "delete", mixinStandardHelpOptions = true,
            description = "Delete one version of a stored template; refused while a campaign sends it.")
    static final class Delete extends ContextCommand {

        @Parameters(paramLabel = "NAME", description = "A stored template's name.")
        String name;

        @Option(names = "--version", required = true, paramLabel = "N", description = "The version to delete.")
        int version;

        @Override
        int run(Services s) throws Exception {
            try {
                s.templateStore().delete(name, version);
            } catch (CampaignException e) {
                throw new UsageException(e.getMessage());
            }
            out().println("deleted version " + version + " of template " + name);
            return Cli.OK;
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true,
            description = "Print a stored template's version (the latest by default), part by part.")
    static final class Show extends ContextCommand {

        @Parameters(paramLabel = "NAME", description = "A stored template's name.")
        String name;

        @Option(names = "--version", paramLabel = "N", description = "The version to show; default: the latest.")
        Integer version;

        @Override
        int run(Services s) throws Exception {
            PrintWriter out = out();
            Version v = s.templateStore().version(name, Optional.ofNullable(version));
            out.println("template " + v.name() + " version " + v.version() + ", saved " + v.savedAt() + " by " + v.savedBy());
            TemplateSource source = TemplateStore.source(v);
            for (String part : TemplateLoader.PARTS) {
                source.part(part).ifPresent(text -> {
                    out.println("--- " + part);
                    out.print(text.endsWith("\n") ? text : text + "\n");
                });
            }
            return Cli.OK;
        }
    }

    @Command(name = "diff", mixinStandardHelpOptions = true,
            description = "The unified diff between two versions of a stored template, part by part; nothing when they are the same.")
    static final class Diff extends ContextCommand {

        @Parameters(index = "0", paramLabel = "NAME", description = "A stored template's name.")
        String name;

        @Parameters(index = "1", paramLabel = "FROM", description = "The older version's number.")
        int from;

        @Parameters(index = "2", paramLabel = "TO", description = "The newer version's number.")
        int to;

        @Override
        int run(Services s) throws Exception {
            s.templateStore().diff(name, from, to).forEach(out()::println);
            return Cli.OK;
        }
    }

    @Command(name = "export", mixinStandardHelpOptions = true,
            description = "Write a stored template's version (the latest by default) into DIR/NAME/ as the files a template "
                    + "folder holds; an existing folder is never overwritten.")
    static final class Export extends ContextCommand {

        @Parameters(index = "0", paramLabel = "NAME", description = "A stored template's name.")
        String name;

        @Parameters(index = "1", paramLabel = "DIR", description = "The directory to write the template's folder into.")
        Path dir;

        @Option(names = "--version", paramLabel = "N", description = "The version to export; default: the latest.")
        Integer version;

        @Override
        int run(Services s) throws Exception {
            Version v = s.templateStore().version(name, Optional.ofNullable(version));
            Path target = dir.resolve(v.name());
            if (Files.exists(target)) {
                throw new UsageException(target + " exists: export into a directory without a folder named " + v.name());
            }
            Files.createDirectories(target);
            TemplateSource source = TemplateStore.source(v);
            for (String part : TemplateLoader.PARTS) {
                Optional<String> text = source.part(part);
                if (text.isPresent()) {
                    write(target.resolve(part), text.get());
                }
            }
            out().println("template " + v.name() + " version " + v.version() + " written to " + target);
            return Cli.OK;
        }

        private static void write(Path file, String text) throws IOException {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        }
    }
}
