package dev.mailrun.app.cli;

import dev.mailrun.app.Services;
import dev.mailrun.campaign.audience.segment.FilterParser;
import dev.mailrun.campaign.audience.segment.Segments;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.store.audience.SegmentTable;
import dev.mailrun.campaign.store.audience.SubscriberMatches;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "segments", mixinStandardHelpOptions = true,
        description = "Segments (docs/AUDIENCE.md): saved filters over the subscribers, with live counts and previews.",
        subcommands = {SegmentsCommand.Create.class, SegmentsCommand.ListSegments.class, SegmentsCommand.Show.class,
                SegmentsCommand.Delete.class, SegmentsCommand.Count.class})
final class SegmentsCommand extends GroupCommand {

    private static final String FILTER_HELP = "The filter as JSON (docs/AUDIENCE.md, \"Segments\"), or @FILE to read it from a file.";

    /** Bad values on one line: NAME for the segment's name, --filter and the path of each bad part of the filter. */
    static UsageException usage(InvalidFields e) {
        return new UsageException(e.problems().stream().map(p -> label(p.field()) + ": " + p.reason()).collect(Collectors.joining("; ")));
    }

    private static String label(String field) {
        if (field.equals(FilterParser.FIELD)) {
            return "--filter";
        }
        if (field.startsWith(FilterParser.FIELD + ".")) {
            return "--filter " + field.substring(FilterParser.FIELD.length() + 1);
        }
        return field.equals("name") ? "NAME" : field.equals("limit") ? "--preview" : FieldOptions.optionOf(field);
    }

    /** The filter as given, or the content of the file named after an {@code @}. */
    static String filter(String given) {
        if (!given.startsWith("@")) {
            return given;
        }
        Path file = Path.of(given.substring(1));
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UsageException("--filter: cannot read " + file + ": " + e.getMessage());
        }
    }

    @Command(name = "create", mixinStandardHelpOptions = true, description = "Save a filter as a segment; its name is unique whatever the letter case.")
    static final class Create extends ContextCommand {

        @Parameters(paramLabel = "NAME", description = "The segment's name (at most 100 characters).")
        String name;

        @Option(names = "--filter", required = true, paramLabel = "JSON|@FILE", description = FILTER_HELP)
        String filter;

        @Override
        int run(Services s) throws Exception {
            try {
                SegmentTable.Stored seg = s.audience().segments().create(name, filter(filter));
                out().println("created segment " + seg.name() + ": " + Counted.of(s.audience().segments().count(seg.name()), "subscriber") + " now");
            } catch (InvalidFields e) {
                throw usage(e);
            }
            return Cli.OK;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Every segment by name, with how many subscribers it matches now.")
    static final class ListSegments extends ContextCommand {

        @Override
        int run(Services s) throws Exception {
            Segments segments = s.audience().segments();
            List<SegmentTable.Stored> all = segments.list();
            if (all.isEmpty()) {
                out().println("no segments (create one: mailrun segments create NAME --filter JSON)");
                return Cli.OK;
            }
            String row = "%-30s %11s  %s%n";
            out().printf(row, "NAME", "SUBSCRIBERS", "FILTER");
            for (SegmentTable.Stored seg : all) {
                out().printf(row, seg.name(), segments.count(seg.name()), seg.filter());
            }
            return Cli.OK;
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true, description = "A segment: its filter, its count now and its first subscribers.")
    static final class Show extends ContextCommand {

        @Parameters(paramLabel = "NAME", description = "The segment's name.")
        String name;

        @Option(names = "--preview", paramLabel = "N", defaultValue = "10",
                description = "How many of its first subscribers (in id order) to show, 1-100 (default: ${DEFAULT-VALUE}).")
        int preview;

        @Override
        int run(Services s) throws Exception {
            Segments segments = s.audience().segments();
            try {
                SegmentTable.Stored seg = segments.get(name).orElseThrow(() -> InvalidFields.of("name", "no segment named '" + name.strip() + "'"));
                List<SubscriberMatches.Match> first = segments.previewSegment(seg.name(), preview);
                out().println("segment:  " + seg.name());
                out().println("filter:   " + seg.filter());
                out().println("matches:  " + Counted.of(segments.count(seg.name()), "subscriber"));
                out().println("created:  " + seg.createdAt() + ", updated " + seg.updatedAt());
                for (SubscriberMatches.Match m : first) {
                    out().printf("  %-10d %-40s %-11s %s%n", m.id(), m.email(), m.status().dbValue(), m.name().orElse(""));
                }
            } catch (InvalidFields e) {
                throw usage(e);
            }
            return Cli.OK;
        }
    }

    @Command(name = "delete", mixinStandardHelpOptions = true, description = {"Delete a segment (its subscribers stay).",
            "Refused while a campaign neither completed nor cancelled is sent to it."})
    static final class Delete extends ContextCommand {

        @Parameters(paramLabel = "NAME", description = "The segment's name.")
        String name;

        @Override
        int run(Services s) throws Exception {
            try {
                s.audience().segments().delete(name);
            } catch (InvalidFields e) {
                throw usage(e);
            }
            out().println("deleted segment " + name.strip());
            return Cli.OK;
        }
    }

    @Command(name = "count", mixinStandardHelpOptions = true, description = "How many subscribers a filter matches now, without saving it.")
    static final class Count extends ContextCommand {

        @Option(names = "--filter", required = true, paramLabel = "JSON|@FILE", description = FILTER_HELP)
        String filter;

        @Override
        int run(Services s) throws Exception {
            try {
                out().println(s.audience().segments().countFilter(filter(filter)));
            } catch (InvalidFields e) {
                throw usage(e);
            }
            return Cli.OK;
        }
    }
}
