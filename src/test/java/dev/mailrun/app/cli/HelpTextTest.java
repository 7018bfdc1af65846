package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** Every command's {@code --help}, read as a newcomer reads it. */
class HelpTextTest {

    /** A word cut at a dot: "tick." at the end of one line, "shutdown-grace" at the start of the next. */
    private static final Pattern KEY_CUT_AT_A_DOT = Pattern.compile("[a-z]\\.\\n[a-z]");

    /** An option's first line: its names, then at least two spaces, then its description. */
    private static final Pattern OPTION_LINE = Pattern.compile("^ {2}(-\\w, )?( {4})?--?[\\w-]+(=\\S+)?\\s{2,}\\S");

    private static final int NAMES_ONLY = -2;
    private static final Pattern OPTION_NAMES = Pattern.compile("^ {2}(-\\w, | {4})--?\\w");

    private static List<CommandLine> allCommands() {
        List<CommandLine> all = new ArrayList<>();
        collect(new CommandLine(new MailrunCommand(Map.of(), Clock.systemUTC())), all);
        return all;
    }

    private static void collect(CommandLine cl, List<CommandLine> into) {
        into.add(cl);
        cl.getSubcommands().values().forEach(sub -> collect(sub, into));
    }

    private static String help(CommandLine cl) {
        StringWriter out = new StringWriter();
        cl.usage(new PrintWriter(out, true));
        return out.toString();
    }

    @Test
    void every_option_of_every_command_says_what_it_is_for() {
        List<String> bare = new ArrayList<>();
        for (CommandLine cl : allCommands()) {
            for (OptionSpec o : cl.getCommandSpec().options()) {
                if (String.join("", o.description()).isBlank()) {
                    bare.add(cl.getCommandSpec().qualifiedName() + " " + o.longestName());
                }
            }
        }
        assertThat(bare).isEmpty();
    }

    @Test
    void continuation_lines_of_option_descriptions_are_indented_under_the_description() {
        for (CommandLine cl : allCommands()) {
            int column = -1;
            for (String line : help(cl).lines().toList()) {
                java.util.regex.Matcher option = OPTION_LINE.matcher(line);
                if (option.find()) {
                    column = option.end() - 1;   // where the option's description starts
                } else if (OPTION_NAMES.matcher(line).find()) {
                    column = NAMES_ONLY;         // an option whose names fill the line; its description follows
                } else if (line.isEmpty() || !line.startsWith(" ")) {
                    column = -1;                 // the option list is over (Commands:, a blank line)
                } else if (column == NAMES_ONLY) {
                    column = line.length() - line.stripLeading().length();
                } else if (column > 0) {
                    int indent = line.length() - line.stripLeading().length();
                    assertThat(indent).as(cl.getCommandSpec().qualifiedName() + " --help: '" + line + "'").isGreaterThan(column);
                }
            }
        }
    }

    @Test
    void no_configuration_key_is_cut_at_its_dot_across_two_lines() {
        for (CommandLine cl : allCommands()) {
            assertThat(KEY_CUT_AT_A_DOT.matcher(help(cl)).find()).as(cl.getCommandSpec().qualifiedName() + " --help:\n" + help(cl))
                    .isFalse();
        }
    }

}
