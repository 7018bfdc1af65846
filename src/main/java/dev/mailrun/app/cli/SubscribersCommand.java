package dev.mailrun.app.cli;

import dev.mailrun.app.Services;
import dev.mailrun.campaign.audience.Subscriber;
import dev.mailrun.campaign.audience.SubscriberForm;
import dev.mailrun.campaign.audience.SubscriberSearch;
import dev.mailrun.campaign.audience.Subscribers;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.SubscriptionSource;
import dev.mailrun.campaign.store.audience.SubscriberEventTable;
import dev.mailrun.campaign.store.audience.SubscriptionTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "subscribers", mixinStandardHelpOptions = true,
        description = "Subscribers (docs/AUDIENCE.md): import into a list, add, show, search, blocklist, unblocklist, delete, erase, consent.",
        subcommands = {SubscriberImportCommand.class, SubscribersCommand.Add.class, SubscribersCommand.Show.class,
                SubscribersCommand.Search.class, SubscribersCommand.Blocklist.class, SubscribersCommand.Unblocklist.class,
                SubscribersCommand.Delete.class, SubscriberEraseCommand.class, ConsentCommand.class})
final class SubscribersCommand extends GroupCommand {

    private static final Map<String, String> EMAIL = Map.of("email", "EMAIL");

    @Command(name = "add", mixinStandardHelpOptions = true,
            description = {"Add a subscriber, or change the one with this address.",
                    "--name and --attr replace what is stored; --list subscribes to a list it is not on (confirmed on a single "
                            + "opt-in list, unconfirmed on a double one). An address the recipient import would reject "
                            + "(suppressed, a disposable domain or role address when those are rejected) is refused."})
    static final class Add extends ContextCommand {

        @Parameters(paramLabel = "EMAIL", description = "Email address.")
        String email;

        @Option(names = "--name", paramLabel = "NAME", description = "The person's name (blank: remove it).")
        String name;

        @Option(names = "--attr", paramLabel = "NAME=VALUE",
                description = "An attribute, as text; repeat for more. Given, they replace every stored attribute.")
        List<String> attrs = new ArrayList<>();

        @Option(names = "--list", paramLabel = "NAME", description = "A list to subscribe to; repeat for more.")
        List<String> lists = new ArrayList<>();

        @Override
        int run(Services s) throws Exception {
            SubscriberForm form = new SubscriberForm(email, Optional.ofNullable(name),
                    attrs.isEmpty() ? Optional.empty() : Optional.of(attributes(attrs)), lists);
            Subscribers.Upserted u;
            try {
                u = s.audience().subscribers().upsert(form, SubscriptionSource.OPERATOR);
            } catch (InvalidFields e) {
                throw PositionalFields.usage(e, EMAIL);
            }
            out().println((u.created() ? "added " : "updated ") + u.subscriber().email() + " (id " + u.subscriber().id() + ")"
                    + (u.subscribedTo().isEmpty() ? "" : ", subscribed to " + String.join(", ", u.subscribedTo())));
            return Cli.OK;
        }

        private static Map<String, String> attributes(List<String> given) {
            Map<String, String> m = new LinkedHashMap<>();
            for (String a : given) {
                int eq = a.indexOf('=');
                if (eq < 0) {
                    throw new UsageException("--attr '" + a + "': expected NAME=VALUE");
                }
                if (m.put(a.substring(0, eq).strip(), a.substring(eq + 1)) != null) {
                    throw new UsageException("--attr " + a.substring(0, eq).strip() + ": given twice");
                }
            }
            return m;
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true,
            description = "A subscriber: name, attributes, status, subscriptions and the newest 100 events of its history.")
    static final class Show extends ContextCommand {

        @Parameters(paramLabel = "EMAIL", description = "Email address (letter case ignored).")
        String email;

        @Override
        int run(Services s) throws Exception {
            Subscribers.Detail d = found(email, () -> s.audience().subscribers().get(email));
            Subscriber sub = d.subscriber();
            out().println(sub.email() + " (id " + sub.id() + "): " + sub.status().dbValue() + ", created " + sub.createdAt()
                    + ", updated " + sub.updatedAt());
            out().println("name:       " + sub.name().orElse("-"));
            out().println("attributes: " + sub.attributes());
            out().println("lists:" + (d.subscriptions().isEmpty() ? " none" : ""));
            for (SubscriptionTable.Stored l : d.subscriptions()) {
                out().printf("  %-30s %-12s from %-8s since %s%n", l.listName(), l.status().dbValue(), l.source().dbValue(), l.updatedAt());
            }
            out().println("history, newest first:");
            for (SubscriberEventTable.Stored e : d.history()) {
                out().printf("  %-24s %-12s %-20s %s%n", e.at(), e.kind(), e.listName().orElse("-"), e.detail().orElse(""));
            }
            return Cli.OK;
        }
    }

    @Command(name = "search", mixinStandardHelpOptions = true,
            description = {"Subscribers in id order, a page at a time.",
                    "The last line names the --after of the next page."})
    static final class Search extends ContextCommand {

        @Option(names = "--email", paramLabel = "PREFIX", description = "Addresses starting with this (letter case ignored).")
        String email;

        @Option(names = "--list", paramLabel = "NAME", description = "Members of this list only.")
        String list;

        @Option(names = "--status", paramLabel = "S", description = "enabled or blocklisted; with --list also unconfirmed, confirmed "
                + "or unsubscribed (the subscription's status).")
        String status;

        @Option(names = "--attr", paramLabel = "NAME=VALUE", description = "Those whose attribute NAME's text is VALUE, byte for byte "
                + "(a number or true/false as JSON writes it).")
        String attr;

        @Option(names = "--limit", paramLabel = "N", defaultValue = "50", description = "How many to show, 1-1000 (default 50).")
        int limit;

        @Option(names = "--after", paramLabel = "ID", defaultValue = "0", description = "Only subscribers after this id: the next page.")
        long after;

        @Override
        int run(Services s) throws Exception {
            Optional<Map.Entry<String, String>> attribute = Optional.ofNullable(attr).map(a -> {
                int eq = a.indexOf('=');
                if (eq < 0) {
                    throw new UsageException("--attr '" + a + "': expected NAME=VALUE");
                }
                return Map.entry(a.substring(0, eq).strip(), a.substring(eq + 1));
            });
            Subscribers.Page page;
            try {
                page = s.audience().subscribers().search(new SubscriberSearch(Optional.ofNullable(email), Optional.ofNullable(list),
                        Optional.ofNullable(status), limit, after, attribute));
            } catch (InvalidFields e) {
                // The attribute's name and value are given as one option.
                throw new UsageException(e.problems().stream().map(p -> (p.field().equals("attribute") || p.field().equals("value")
                        ? "--attr" : FieldOptions.optionOf(p.field())) + ": " + p.reason()).collect(Collectors.joining("; ")));
            }
            if (page.rows().isEmpty()) {
                out().println("no subscribers match");
                return Cli.OK;
            }
            String row = "%-10s %-40s %-11s %-24s %s%n";
            out().printf(row, "ID", "EMAIL", "STATUS", "CREATED", "NAME");
            for (Subscriber sub : page.rows()) {
                out().printf(row, sub.id(), sub.email(), sub.status().dbValue(), sub.createdAt(), sub.name().orElse(""));
            }
            page.next().ifPresent(next -> out().println("more: --after " + next));
            return Cli.OK;
        }
    }

    @Command(name = "blocklist", mixinStandardHelpOptions = true,
            description = {"Blocklist an address: no list mails it.",
                    "Every subscription it holds is unsubscribed; an address that is no subscriber yet is added blocklisted."})
    static final class Blocklist extends ContextCommand {

        @Parameters(paramLabel = "EMAIL", description = "Email address.")
        String email;

        @Override
        int run(Services s) throws Exception {
            Subscribers.Blocklisted b;
            try {
                b = s.audience().subscribers().blocklist(email, SubscriptionSource.OPERATOR);
            } catch (InvalidFields e) {
                throw PositionalFields.usage(e, EMAIL);
            }
            String who = b.subscriber().email();
            out().println(!b.changed() ? who + " was blocklisted already"
                    : b.added() ? "added " + who + " blocklisted"
                    : "blocklisted " + who + ", unsubscribed from " + Counted.of(b.unsubscribed(), "list"));
            return Cli.OK;
        }
    }

    @Command(name = "unblocklist", mixinStandardHelpOptions = true,
            description = {"Take an address off the blocklist: lists may mail it again.",
                    "Its subscriptions stay unsubscribed (blocklisting unsubscribed them; adding it to a list again leaves an "
                            + "existing subscription as it is), and the suppression list is not touched."})
    static final class Unblocklist extends ContextCommand {

        @Parameters(paramLabel = "EMAIL", description = "Email address.")
        String email;

        @Override
        int run(Services s) throws Exception {
            Subscribers.Changed c = found(email, () -> s.audience().subscribers().unblocklist(email, SubscriptionSource.OPERATOR));
            String who = c.subscriber().email();
            out().println(c.changed() ? "took " + who + " off the blocklist; its subscriptions stay unsubscribed"
                    : who + " is not blocklisted");
            return Cli.OK;
        }
    }

    @Command(name = "delete", mixinStandardHelpOptions = true,
            description = "Delete a subscriber with its subscriptions and history.")
    static final class Delete extends ContextCommand {

        @Parameters(paramLabel = "EMAIL", description = "Email address.")
        String email;

        @Override
        int run(Services s) throws Exception {
            found(email, () -> s.audience().subscribers().delete(email) ? Optional.of(true) : Optional.empty());
            out().println("deleted " + email.strip() + " with its subscriptions and history");
            return Cli.OK;
        }
    }

    /** A read by address. */
    @FunctionalInterface
    private interface ByAddress<T> {
        Optional<T> read() throws Exception;
    }

    /** What the read found; a usage error naming the address when there is no such subscriber or it is not one. */
    private static <T> T found(String email, ByAddress<T> read) throws Exception {
        try {
            return read.read().orElseThrow(() -> new UsageException("no subscriber " + email.strip()));
        } catch (InvalidFields e) {
            throw PositionalFields.usage(e, EMAIL);
        }
    }
}
