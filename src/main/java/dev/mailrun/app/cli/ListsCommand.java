package dev.mailrun.app.cli;

import dev.mailrun.app.Services;
import dev.mailrun.campaign.audience.Lists;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.ListOptIn;
import dev.mailrun.campaign.model.ListVisibility;
import dev.mailrun.campaign.model.SubscriptionStatus;
import dev.mailrun.campaign.store.audience.SubscriberListTable;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "lists", mixinStandardHelpOptions = true,
        description = "Lists of subscribers (docs/AUDIENCE.md): create, list with their counts, update, delete, language.",
        subcommands = {ListsCommand.Create.class, ListsCommand.ListLists.class, ListsCommand.Update.class, ListsCommand.Delete.class,
                ListLanguageCommand.class})
final class ListsCommand extends GroupCommand {

    private static final Map<String, String> NAME = Map.of("name", "NAME");

    @Command(name = "create", mixinStandardHelpOptions = true,
            description = {"Create a list.", "Its name is unique whatever the letter case. A list is private and single opt-in "
                    + "unless told otherwise."})
    static final class Create extends ContextCommand {

        @Parameters(paramLabel = "NAME", description = "The list's name (at most 100 characters).")
        String name;

        @Option(names = "--description", paramLabel = "TEXT", description = "What the list is for (one line).")
        String description;

        @Option(names = "--public", description = "Shown on the public subscription forms (default: private).")
        boolean isPublic;

        @Option(names = "--double-optin", description = "New subscriptions stay unconfirmed until the person confirms (default: single "
                + "opt-in, confirmed at once).")
        boolean doubleOptIn;

        @Override
        int run(Services s) throws Exception {
            SubscriberListTable.Stored list;
            try {
                list = s.audience().lists().create(new Lists.NewList(name, Optional.ofNullable(description),
                        isPublic ? ListVisibility.PUBLIC : ListVisibility.PRIVATE, doubleOptIn ? ListOptIn.DOUBLE : ListOptIn.SINGLE));
            } catch (InvalidFields e) {
                throw PositionalFields.usage(e, NAME);
            }
            out().println("created list " + list.name() + " (" + list.visibility().dbValue() + ", " + list.optIn().dbValue() + " opt-in)");
            return Cli.OK;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "Every list by name, with how many subscriptions it has in each status.")
    static final class ListLists extends ContextCommand {

        @Override
        int run(Services s) throws Exception {
            List<Lists.Summary> lists = s.audience().lists().list();
            if (lists.isEmpty()) {
                out().println("no lists (create one: mailrun lists create NAME)");
                return Cli.OK;
            }
            String row = "%-30s %-10s %-7s %11s %9s %12s  %s%n";
            out().printf(row, "NAME", "VISIBILITY", "OPT-IN", "UNCONFIRMED", "CONFIRMED", "UNSUBSCRIBED", "DESCRIPTION");
            for (Lists.Summary l : lists) {
                Map<SubscriptionStatus, Long> n = l.counts();
                out().printf(row, l.list().name(), l.list().visibility().dbValue(), l.list().optIn().dbValue(),
                        n.get(SubscriptionStatus.UNCONFIRMED), n.get(SubscriptionStatus.CONFIRMED), n.get(SubscriptionStatus.UNSUBSCRIBED),
                        l.list().description().orElse(""));
            }
            return Cli.OK;
        }
    }

    @Command(name = "update", mixinStandardHelpOptions = true,
            description = {"Change a list: its name, description, visibility or opt-in.", "What is not given stays as it is. A "
                    + "new opt-in applies to new subscriptions; those there already keep their status."})
    static final class Update extends ContextCommand {

        @Parameters(paramLabel = "NAME", description = "The list's name.")
        String name;

        @Option(names = "--name", paramLabel = "NEW", description = "A new name (unique whatever the letter case).")
        String newName;

        @Option(names = "--description", paramLabel = "TEXT", description = "What the list is for (one line; blank removes it).")
        String description;

        @ArgGroup(exclusive = true)
        Visibility visibility;

        @ArgGroup(exclusive = true)
        OptIn optIn;

        static final class Visibility {
            @Option(names = "--public", required = true, description = "Shown on the public subscription forms.")
            boolean isPublic;

            @Option(names = "--private", required = true, description = "Only operators add people.")
            boolean isPrivate;
        }

        static final class OptIn {
            @Option(names = "--single-optin", required = true, description = "New subscriptions are confirmed at once.")
            boolean single;

            @Option(names = "--double-optin", required = true, description = "New subscriptions stay unconfirmed until the person confirms.")
            boolean isDouble;
        }

        @Override
        int run(Services s) throws Exception {
            SubscriberListTable.Stored list;
            try {
                list = s.audience().lists().update(name, new Lists.Changes(Optional.ofNullable(newName), Optional.ofNullable(description),
                        Optional.ofNullable(visibility).map(v -> v.isPublic ? ListVisibility.PUBLIC : ListVisibility.PRIVATE),
                        Optional.ofNullable(optIn).map(o -> o.single ? ListOptIn.SINGLE : ListOptIn.DOUBLE)));
            } catch (InvalidFields e) {
                if (newName != null && e.problems().stream().anyMatch(p -> p.field().equals("name") && p.detail().startsWith("a list"))) {
                    throw PositionalFields.usage(e, Map.of());
                }
                throw PositionalFields.usage(e, NAME);
            }
            out().println("updated list " + list.name() + " (" + list.visibility().dbValue() + ", " + list.optIn().dbValue() + " opt-in)"
                    + list.description().map(d -> ": " + d).orElse(""));
            return Cli.OK;
        }
    }

    @Command(name = "delete", mixinStandardHelpOptions = true,
            description = {"Delete a list and its subscriptions.", "Its subscribers stay, and so does their history."})
    static final class Delete extends ContextCommand {

        @Parameters(paramLabel = "NAME", description = "The list's name.")
        String name;

        @Override
        int run(Services s) throws Exception {
            long subscriptions;
            try {
                subscriptions = s.audience().lists().delete(name);
            } catch (InvalidFields e) {
                throw PositionalFields.usage(e, NAME);
            }
            out().println("deleted list " + name.strip() + " and its " + Counted.of(subscriptions, "subscription"));
            return Cli.OK;
        }
    }
}
