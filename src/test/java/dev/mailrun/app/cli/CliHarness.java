package dev.mailrun.app.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.util.Map;

/** Runs the real CLI in-process and captures what it printed. */
public final class CliHarness {

    public record Result(int exitCode, String out, String err) {}

    private final Map<String, String> env;
    private final Clock clock;

    public CliHarness(Map<String, String> env, Clock clock) {
        this.env = env;
        this.clock = clock;
    }

    public Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = new Cli(env, new PrintWriter(out, true), new PrintWriter(err, true), clock).run(args);
        return new Result(code, out.toString(), err.toString());
    }
}
