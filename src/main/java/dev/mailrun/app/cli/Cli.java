package dev.mailrun.app.cli;

import dev.mailrun.app.config.ConfigException;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.db.JdbcUrls;
import dev.mailrun.db.Migrations;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.util.Map;
import picocli.CommandLine;

/**
 * Runs one mailrun command with explicit streams and environment, so tests drive the real CLI
 * in-process. Exit codes: 0 success, 2 usage or configuration error, 1 runtime failure.
 */
public final class Cli {

    public static final int OK = 0;
    public static final int RUNTIME_FAILURE = 1;
    public static final int USAGE = 2;

    private final Map<String, String> env;
    private final PrintWriter out;
    private final PrintWriter err;
    private final Clock clock;

    public Cli(Map<String, String> env, PrintWriter out, PrintWriter err, Clock clock) {
        this.env = Map.copyOf(env);
        this.out = out;
        this.err = err;
        this.clock = clock;
    }

    static Cli standard() {
        return new Cli(System.getenv(), new PrintWriter(System.out, true), new PrintWriter(System.err, true), Clock.systemUTC());
    }

    public int run(String... args) {
        MailrunCommand root = new MailrunCommand(env, clock);
        CommandLine cl = new CommandLine(root);
        // An argument starting with @ is the argument itself (segments --filter @FILE reads the file as
        // one JSON value), never picocli's argument file split at whitespace.
        cl.setExpandAtFiles(false);
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            boolean verbose = root.verbose();
            if (verbose) {
                StringWriter trace = new StringWriter();
                e.printStackTrace(new PrintWriter(trace));
                err.print(JdbcUrls.masked(trace.toString()));
            }
            int code = exitCodeFor(e);
            if (e instanceof InvalidFields invalid) {
                // Bad input to a command: every problem at once, one line each, named by its option.
                FieldOptions.lines(invalid).lines().forEach(line -> err.println("mailrun: " + line));
                err.flush();
                return code;
            }
            err.println("mailrun: " + oneLine(e));
            err.flush();
            return code;
        });
        cl.setParameterExceptionHandler((e, args2) -> {
            err.println("mailrun: " + oneLine(e));
            err.println("Try 'mailrun " + e.getCommandLine().getCommandSpec().qualifiedName().replaceFirst("^mailrun ?", "")
                    .trim() + " --help'.".replace("'  --help'", "' --help'"));
            err.flush();
            return USAGE;
        });
        int code = cl.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    static int exitCodeFor(Throwable e) {
        if (e instanceof ConfigException || e instanceof InvalidFields || e instanceof Migrations.SchemaNotCurrentException
                || e instanceof UsageException || e instanceof dev.mailrun.mail.dkim.DkimKeyException) {
            return USAGE;
        }
        return RUNTIME_FAILURE;
    }

    /**
     * The first line of the message, or the type when there is none: errors are one line. A database
     * URL quoted in it (by mailrun, the pool or Flyway) is shown without its password.
     */
    static String oneLine(Throwable e) {
        String m = e.getMessage();
        if (m == null || m.isBlank()) {
            return e.getClass().getSimpleName();
        }
        return JdbcUrls.masked(m.lines().findFirst().orElse(m).trim());
    }
}
