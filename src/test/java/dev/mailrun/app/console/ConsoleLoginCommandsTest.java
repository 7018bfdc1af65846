package dev.mailrun.app.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.app.cli.Cli;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The commands the login page names are commands the CLI has: a newcomer types them as shown. */
class ConsoleLoginCommandsTest {

    /** "mailrun api-token create" as the page quotes it: in code, or in parentheses. */
    private static final Pattern COMMAND = Pattern.compile("mailrun((?: [a-z][a-z-]*)+)(?=</code>|\\))");

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final SettableClock clock = SettableClock.at("2026-11-26T10:00:00Z");
    private ConsoleClient console;

    @BeforeEach
    void start() throws Exception {
        console = new ConsoleClient(WorkerEnv.of(db, 2525), clock);
    }

    @AfterEach
    void stop() {
        console.close();
    }

    @Test
    void every_command_the_login_page_and_its_errors_name_exists() {
        String pages = console.get(null, "/console/login").body() + console.loginForm(" ").body()
                + console.loginForm("mrt_not-a-token").body();
        List<String> named = new ArrayList<>();
        Matcher m = COMMAND.matcher(pages);
        while (m.find()) {
            named.add(m.group(1).strip());
        }
        assertThat(named).as("the login page, its empty-token and unknown-token errors").hasSizeGreaterThanOrEqualTo(3);
        for (String command : named) {
            StringWriter out = new StringWriter();
            List<String> args = new ArrayList<>(List.of(command.split(" ")));
            args.add("--help");
            new Cli(Map.of(), new PrintWriter(out), new PrintWriter(new StringWriter()), clock).run(args.toArray(String[]::new));
            // picocli shows the deepest command it matched: the root's usage when the words are no command.
            assertThat(out.toString()).as("mailrun " + command + " --help").startsWith("Usage: mailrun " + command + " ");
        }
    }
}
