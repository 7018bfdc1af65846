package dev.mailrun.app.cli;

import dev.mailrun.app.Services;
import dev.mailrun.events.EventFilters;
import dev.mailrun.events.EventLog;
import dev.mailrun.events.store.DeliveryTable;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "events", mixinStandardHelpOptions = true,
        description = {"Events out: what the outbox delivers to each endpoint (docs/EVENTS.md).",
                "The endpoints are named in events.endpoints. The worker delivers; these commands show deliveries, "
                        + "replay, discard and enable."},
        subcommands = {EventsCommand.Endpoints.class, EventsCommand.ListEvents.class, EventsCommand.Replay.class,
                EventsCommand.Discard.class, EventsCommand.Enable.class})
final class EventsCommand extends GroupCommand {

    @Command(name = "endpoints", mixinStandardHelpOptions = true,
            description = "Each endpoint's state: pending deliveries, oldest pending, failing since, disabled.")
    static final class Endpoints extends ContextCommand {

        @Override
        int run(Services s) throws Exception {
            List<EventLog.EndpointStatus> states = s.eventLog().endpoints();
            if (states.isEmpty()) {
                out().println("no endpoints (events.endpoints is empty)");
                return Cli.OK;
            }
            out().printf("%-16s %-9s %-25s %-10s %s%n", "ENDPOINT", "PENDING", "OLDEST PENDING", "STATE", "LAST ERROR");
            for (EventLog.EndpointStatus st : states) {
                String state = switch (st.state()) {
                    case "disabled" -> "disabled since " + st.disabledAt().orElseThrow();
                    case "failing" -> "failing since " + st.failingSince().orElseThrow() + ", next try "
                            + st.nextAttemptAt().map(Object::toString).orElse("-");
                    default -> st.state();
                };
                out().printf("%-16s %-9d %-25s %-10s %s%n", st.name(), st.pending(),
                        st.oldestPending().map(Object::toString).orElse("-"), state, st.lastError().orElse(""));
            }
            return Cli.OK;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "The newest deliveries, as a table.")
    static final class ListEvents extends ContextCommand {

        @Option(names = "--endpoint", paramLabel = "NAME", description = "Only deliveries to this endpoint.")
        String endpoint;

        @Option(names = "--status", paramLabel = "S", description = "pending, failed, delivered or discarded.")
        String status;

        @Option(names = "--type", paramLabel = "T", description = "Only events of this type (recipient.bounced) or of every type with this prefix (recipient.*).")
        String type;

        @Mixin
        ListLimit limit;

        @Override
        int run(Services s) throws Exception {
            List<DeliveryTable.Listed> rows = s.eventLog().list(filter(endpoint, status, type, null), limit.value());
            if (rows.isEmpty()) {
                out().println("no deliveries" + (endpoint == null && status == null && type == null ? "" : " match"));
                return Cli.OK;
            }
            out().printf("%-12s %-36s %-24s %-25s %-10s %-8s %s%n", "ENDPOINT", "EVENT", "TYPE", "TIME", "STATUS", "ATTEMPTS", "REPLY");
            for (DeliveryTable.Listed r : rows) {
                out().printf("%-12s %-36s %-24s %-25s %-10s %-8d %s%n", r.endpoint(), r.event().eventId(), r.event().type(),
                        r.event().occurredAt(), r.status().dbValue(), r.attempts(), r.lastReply() == null ? "" : r.lastReply());
            }
            return Cli.OK;
        }
    }

    @Command(name = "replay", mixinStandardHelpOptions = true,
            description = {"Deliver again every event since a time that the endpoint's types take.",
                    "The events keep their ids (receivers deduplicate by id). Recorded in the audit with --why and the OS user."})
    static final class Replay extends ContextCommand {

        @Option(names = "--endpoint", required = true, paramLabel = "NAME", description = "The endpoint (one of events.endpoints).")
        String endpoint;

        @Option(names = "--since", required = true, paramLabel = "TIME",
                description = "A date (2026-11-01, midnight UTC) or an instant (2026-11-01T10:00:00Z).")
        String since;

        @Option(names = "--why", required = true, paramLabel = "TEXT", description = "Why (recorded; required).")
        String why;

        @Override
        int run(Services s) throws Exception {
            try {
                long n = s.eventLog().replay(endpoint, SuppressionsCommand.since(since), user(), why);
                out().println("replaying " + Counted.of(n, "event") + " to " + endpoint + "; the worker delivers them");
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
            return Cli.OK;
        }
    }

    @Command(name = "discard", mixinStandardHelpOptions = true,
            description = {"Stop delivering pending (or failed) events to an endpoint: marked discarded, never sent.",
                    "Recorded in the audit with --why and the OS user."})
    static final class Discard extends ContextCommand {

        @Option(names = "--endpoint", required = true, paramLabel = "NAME", description = "The endpoint (one of events.endpoints).")
        String endpoint;

        @Option(names = "--status", paramLabel = "S", description = "pending or failed (default: both).")
        String status;

        @Option(names = "--type", paramLabel = "T", description = "An event type or prefix (recipient.*).")
        String type;

        @Option(names = "--before", paramLabel = "TIME", description = "Only events that happened before this date or instant.")
        String before;

        @Option(names = "--why", required = true, paramLabel = "TEXT", description = "Why (recorded; required).")
        String why;

        @Override
        int run(Services s) throws Exception {
            option("--status", () -> EventFilters.discardable(status));
            DeliveryTable.Filter f = filter(endpoint, status, type, before);
            try {
                int n = s.eventLog().discard(f, user(), why);
                out().println("discarded " + n + (n == 1 ? " delivery" : " deliveries") + " to " + endpoint);
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
            return Cli.OK;
        }
    }

    @Command(name = "enable", mixinStandardHelpOptions = true,
            description = "Enable an endpoint disabled after failing for events.<name>.disable-after; its pending events go out.")
    static final class Enable extends ContextCommand {

        @Option(names = "--endpoint", required = true, paramLabel = "NAME", description = "The endpoint (one of events.endpoints).")
        String endpoint;

        @Option(names = "--why", required = true, paramLabel = "TEXT", description = "Why (recorded; required).")
        String why;

        @Override
        int run(Services s) throws Exception {
            try {
                boolean enabled = s.eventLog().enable(endpoint, user(), why);
                out().println(enabled ? "enabled " + endpoint + "; the worker delivers its pending events"
                        : endpoint + " is not disabled; nothing changed");
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
            return Cli.OK;
        }
    }

    private static java.time.Instant before(String value) {
        try {
            return SuppressionsCommand.since(value);
        } catch (UsageException e) {
            throw new UsageException(e.getMessage().replace("--since", "--before"));
        }
    }

    private static String user() {
        return System.getProperty("user.name", "unknown");
    }

    static DeliveryTable.Filter filter(String endpoint, String status, String type, String before) {
        return new DeliveryTable.Filter(option("--endpoint", () -> EventFilters.endpoint(endpoint)),
                option("--status", () -> EventFilters.status(status)), option("--type", () -> EventFilters.type(type)),
                Optional.ofNullable(before).map(EventsCommand::before));
    }

    private static <T> T option(String name, java.util.function.Supplier<T> check) {
        try {
            return check.get();
        } catch (IllegalArgumentException e) {
            throw new UsageException(name + " " + e.getMessage());
        }
    }
}
