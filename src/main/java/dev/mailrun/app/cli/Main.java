package dev.mailrun.app.cli;

/** The program's entry point: the command line is the outermost adapter, so it lives with it. */
public final class Main {

    private Main() {}

    public static void main(String[] args) {
        System.exit(Cli.standard().run(args));
    }
}
