package dev.mailrun.app;

import dev.mailrun.app.cli.Cli;

public final class Main {

    private Main() {}

    public static void main(String[] args) {
        System.exit(Cli.standard().run(args));
    }
}
