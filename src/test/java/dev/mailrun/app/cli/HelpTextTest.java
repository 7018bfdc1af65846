package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import dev.mailrun.campaign.CampaignExport;
import dev.mailrun.campaign.model.ApiScope;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/** Every command's {@code --help}, read as a newcomer reads it. */
class HelpTextTest {

    /** A word cut at a dot: "tick." at the end of one line, "shutdown-grace" at the start of the next. */
    private static final Pattern KEY_CUT_AT_A_DOT = Pattern.compile("[a-z]\\.\\n[a-z]");

    /** An option's first line: its names, then at least two spaces, then its description. */
    private static final Pattern OPTION_LINE = Pattern.compile("^ {2}(-\\w, )?( {4})?--?[\\w-]+(=\\S+)?\\s{2,}\\S");

    private static final int NAMES_ONLY = -2;

    /** The end of a sentence: a full stop (or ? !), perhaps inside a closing bracket or quote. */
    private static final Pattern SENTENCE_END = Pattern.compile("[.?!][)\"'`]?$");

    /** A % that picocli reads as a format code: any but %% and %n (a new line). */
    private static final Pattern FORMAT_CODE = Pattern.compile("%(?![%n])");

    /** Spaces no sentence has: what a width in a format code (%-50%) pads with. */
    private static final Pattern FORMAT_PADDING = Pattern.compile("\\S {3,}\\S");

    /** A line of nothing but punctuation: what a stray format code leaves behind. */
    private static final Pattern PUNCTUATION_ONLY = Pattern.compile("^\\s*\\p{Punct}+\\s*$");
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


    /** What a command list shows of a command: its header, or else its description's first paragraph. */
    private static String summary(CommandSpec spec) {
        String[] header = spec.usageMessage().header();
        String[] lines = header.length > 0 ? header : spec.usageMessage().description();
        return lines.length == 0 ? "" : lines[0].strip();
    }

    private static Stream<ArgSpec> args(CommandSpec spec) {
        return spec.args().stream();
    }

    @Test
    void every_commands_summary_in_a_command_list_is_a_whole_sentence() {
        List<String> cut = new ArrayList<>();
        for (CommandLine cl : allCommands()) {
            String summary = summary(cl.getCommandSpec());
            if (!SENTENCE_END.matcher(summary).find()) {
                cut.add(cl.getCommandSpec().qualifiedName() + ": '" + summary + "'");
            }
        }
        assertThat(cut).isEmpty();
    }

    /** A paragraph ends a sentence: a description is never wrapped by hand, which leaves ragged lines. */
    @Test
    void every_paragraph_of_every_description_ends_a_sentence() {
        List<String> ragged = new ArrayList<>();
        for (CommandLine cl : allCommands()) {
            CommandSpec spec = cl.getCommandSpec();
            for (String paragraph : spec.usageMessage().description()) {
                if (!SENTENCE_END.matcher(paragraph.replace("%n", "").strip()).find()) {
                    ragged.add(spec.qualifiedName() + ": '" + paragraph + "'");
                }
            }
            args(spec).filter(a -> a.description().length > 1).forEach(a -> {
                for (String paragraph : a.description()) {
                    if (!SENTENCE_END.matcher(paragraph.strip()).find()) {
                        ragged.add(spec.qualifiedName() + " " + a.paramLabel() + ": '" + paragraph + "'");
                    }
                }
            });
        }
        assertThat(ragged).isEmpty();
    }

    @Test
    void no_percent_sign_is_read_as_a_format_code_and_no_line_is_only_punctuation() {
        List<String> found = new ArrayList<>();
        for (CommandLine cl : allCommands()) {
            CommandSpec spec = cl.getCommandSpec();
            // A command's description is kept as written: a lone % in it is a format code.
            Stream.of(spec.usageMessage().description()).filter(t -> FORMAT_CODE.matcher(t).find())
                    .forEach(t -> found.add(spec.qualifiedName() + ": '" + t + "'"));
            // An option's comes formatted: a format code such as %-50% has left its padding behind.
            args(spec).flatMap(a -> Stream.of(a.description())).filter(t -> FORMAT_PADDING.matcher(t).find())
                    .forEach(t -> found.add(spec.qualifiedName() + ": '" + t + "'"));
            help(cl).lines().filter(l -> PUNCTUATION_ONLY.matcher(l).find())
                    .forEach(l -> found.add(spec.qualifiedName() + " --help has the line '" + l + "'"));
        }
        assertThat(found).isEmpty();
    }

    @Test
    void every_positional_parameter_says_what_it_is() {
        List<String> bare = new ArrayList<>();
        for (CommandLine cl : allCommands()) {
            for (PositionalParamSpec p : cl.getCommandSpec().positionalParameters()) {
                if (String.join("", p.description()).isBlank()) {
                    bare.add(cl.getCommandSpec().qualifiedName() + " " + p.paramLabel());
                }
            }
        }
        assertThat(bare).isEmpty();
    }

    @Test
    void campaign_export_help_names_every_column_the_export_writes() {
        String help = help(command("campaign", "export"));
        List<String> columns = new ArrayList<>(CampaignExport.COLUMNS);
        columns.addAll(CampaignExport.TRACKING_COLUMNS);
        for (String column : columns) {
            assertThat(help).as("campaign export --help:\n" + help).containsPattern("\\b" + column + "\\b");
        }
    }

    @Test
    void api_token_create_help_names_every_scope() {
        String help = help(command("api-token", "create"));
        for (ApiScope scope : ApiScope.values()) {
            assertThat(help).as("api-token create --help:\n" + help).contains(scope.text());
        }
    }

    private static CommandLine command(String... names) {
        CommandLine cl = allCommands().get(0);
        for (String name : names) {
            cl = cl.getSubcommands().get(name);
        }
        return cl;
    }
}
