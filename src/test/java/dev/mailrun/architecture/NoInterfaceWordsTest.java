package dev.mailrun.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The domain reports bad input as field errors ({@code InvalidFields}: the field and the reason), never
 * in the words of one interface: the command line, the API and the console each name the field their
 * own way ({@code --rate}, {@code rate}, the form's label). So no string in {@code campaign} or
 * {@code mail} names a command-line option.
 */
class NoInterfaceWordsTest {

    /** A string literal holding a long option: {@code "--window"}, {@code "… --fields …"}; not a MIME boundary's {@code "--"}. */
    private static final Pattern OPTION_IN_STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*?(?<![-\\w])--[a-z][a-z-]+(?:[^\"\\\\]|\\\\.)*\"");

    @Test
    void no_string_in_the_domain_names_a_command_line_option() throws IOException {
        List<String> found = new ArrayList<>();
        for (String root : List.of("src/main/java/dev/mailrun/campaign", "src/main/java/dev/mailrun/mail")) {
            try (Stream<Path> files = Files.walk(Path.of(root))) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    List<String> lines = Files.readAllLines(file);
                    for (int i = 0; i < lines.size(); i++) {
                        String code = lines.get(i).strip();
                        if (code.startsWith("*") || code.startsWith("//") || code.startsWith("/*")) {
                            continue;   // comments may say which option a value comes from
                        }
                        Matcher m = OPTION_IN_STRING.matcher(code);
                        if (m.find()) {
                            found.add(file + ":" + (i + 1) + ": " + m.group());
                        }
                    }
                }
            }
        }
        assertThat(found).as("strings in campaign/ and mail/ that name a command-line option").isEmpty();
    }

    @Test
    void the_rule_sees_an_option_in_a_message() {
        assertThat(OPTION_IN_STRING.matcher("throw new IllegalArgumentException(\"--window must not be empty\");").find()).isTrue();
        assertThat(OPTION_IN_STRING.matcher("throw bad(\"run: template check \" + n + \" --fields a\");").find()).isTrue();
        assertThat(OPTION_IN_STRING.matcher("out.text(\"--\").text(boundary);").find()).isFalse();
        assertThat(OPTION_IN_STRING.matcher("String PEM = \"-----BEGIN PRIVATE KEY-----\";").find()).isFalse();
    }
}
