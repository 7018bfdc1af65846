package dev.mailrun.app.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * Base of a command that only groups subcommands ({@code db}, {@code campaign}, {@code suppressions}, …):
 * called without one, it prints its usage and succeeds.
 */
abstract class GroupCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public final void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
