package dev.mailrun.app.cli;

import picocli.CommandLine.Option;

/** The {@code --limit} of the commands that list the newest rows as a table: how many, 1–10000. */
final class ListLimit {

    static final int MAX = 10_000;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "50", description = "How many to show, 1-10000 (default 50).")
    int limit;

    /** The limit given; a usage error naming it when outside 1–10000. */
    int value() {
        return checked(limit);
    }

    static int checked(int limit) {
        if (limit < 1 || limit > MAX) {
            throw new UsageException("--limit must be 1-10000, got " + limit);
        }
        return limit;
    }
}
