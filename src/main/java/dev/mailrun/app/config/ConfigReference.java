package dev.mailrun.app.config;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Renders what {@link ConfigKeys} says as the two documents that list the keys: the key reference of
 * docs/CONFIGURATION.md (the part between {@link #BEGIN} and {@link #END}; the prose above it is
 * written by hand) and the whole of {@code mailrun.properties.example}. Each key's meaning is
 * written once, in ConfigKeys; {@code ConfigReferenceTest} fails when a committed file differs from
 * what this renders, and leaves the rendered files in {@code target/config-reference/} to copy.
 */
final class ConfigReference {

    static final String BEGIN = "<!-- BEGIN KEY REFERENCE: generated from ConfigKeys by ConfigReference; edit ConfigKeys, not this part -->";
    static final String END = "<!-- END KEY REFERENCE -->";

    /** The example's comment lines are wrapped to this width, "# " included. */
    static final int WIDTH = 100;

    private static final String SECRET = "Secret: never logged or printed.";

    private static final String EXAMPLE_HEADER = """
            mailrun configuration: every key with its default, generated from the code (ConfigKeys).
            docs/CONFIGURATION.md has the same keys with their ranges and variables, and the rules below.
            Copy this file to mailrun.properties (or pass --config FILE) and set a key on a line without '#'.
            Every key can also be set by an environment variable: db.url -> MAILRUN_DB_URL.
            Values shown are the defaults; durations accept 250ms, 30s, 5m, 2h, 1d or ISO-8601 (PT5M).
            A number or duration outside its range (bounds included) stops mailrun with a configuration error.
            Every key is checked at every start, whatever the command. The file is UTF-8; each key appears once.
            Yes-or-no keys take true or false; these and named values (smtp.tls, log.*) are read in any case.
            Secrets are used exactly as given; one that begins or ends with whitespace is refused.
            A properties file has no trailing comments: put a comment on a line of its own. Any value with
            whitespace followed by '#' (http.port=8080  # note) is refused rather than read with the note in it.
            """;

    private ConfigReference() {}

    /** The key reference: for each section a heading, its introduction and a table of its keys. */
    static String keyReference() {
        Markdown md = new Markdown();
        StringBuilder out = new StringBuilder();
        for (ConfigSection section : ConfigKeys.sections()) {
            out.append("\n### ").append(section.title()).append("\n\n");
            if (!section.intro().isEmpty()) {
                out.append(md.text(section.intro())).append("\n\n");
            }
            out.append("| key | default | range | variable | meaning |\n|---|---|---|---|---|\n");
            for (ConfigKey key : section.keys()) {
                out.append("| `").append(key.name()).append("` | ")
                        .append(key.defaultValue().isEmpty() ? "(empty)" : "`" + key.defaultValue() + "`").append(" | ")
                        .append(key.range().map(Range::text).orElse("")).append(" | ")
                        .append(ConfigKeys.environmentVariable(key).map(v -> "`" + v + "`").orElse("none: the file only")).append(" | ")
                        .append(md.text(key.description() + (key.secret() ? " " + SECRET : ""))).append(" |\n");
            }
        }
        return out.toString();
    }

    /** {@code document} with its key reference replaced by {@link #keyReference()}. */
    static String withKeyReference(String document) {
        int begin = document.indexOf(BEGIN);
        int end = document.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new IllegalArgumentException("no key reference: the lines " + BEGIN + " and " + END + " are missing");
        }
        return document.substring(0, begin + BEGIN.length()) + "\n" + keyReference() + "\n" + document.substring(end);
    }

    /** The whole of {@code mailrun.properties.example}: every key commented out with its default. */
    static String example() {
        List<String> lines = new ArrayList<>();
        EXAMPLE_HEADER.lines().forEach(l -> lines.add("# " + l));
        for (ConfigSection section : ConfigKeys.sections()) {
            lines.add("");
            lines.add("# == " + section.title() + " ==");
            if (!section.intro().isEmpty()) {
                lines.addAll(comment(section.intro()));
                lines.add("#");
            }
            for (ConfigKey key : section.keys()) {
                String text = key.description()
                        + key.range().map(r -> " Range: " + r.text() + ".").orElse("")
                        + (key.secret() ? " " + SECRET : "");
                lines.addAll(comment(text));
                lines.add("#" + key.name() + "=" + key.defaultValue());
            }
        }
        return String.join("\n", lines) + "\n";
    }

    /** {@code text} as comment lines of at most {@link #WIDTH} characters (a longer word stands alone). */
    static List<String> comment(String text) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder("#");
        for (String word : text.split(" ")) {
            if (line.length() > 1 && line.length() + 1 + word.length() > WIDTH) {
                lines.add(line.toString());
                line = new StringBuilder("#");
            }
            line.append(' ').append(word);
        }
        lines.add(line.toString());
        return lines;
    }

    /**
     * Plain text as Markdown inside a table cell: key names ({@code smtp.rate}, {@code events.<name>.url},
     * {@code bounce.imap.*}), variables and {@code <name>} as code, docs/X.md as links relative to docs/, and the
     * characters a table or Markdown would read ({@code |}, {@code *}, {@code <}) escaped.
     */
    private static final class Markdown {

        private final Pattern token;

        Markdown() {
            Set<String> namespaces = new LinkedHashSet<>();
            ConfigKeys.all().forEach(k -> namespaces.add(Pattern.quote(k.name().substring(0, k.name().indexOf('.')))));
            String key = "(?<![\\w/.@-])(?:" + String.join("|", namespaces) + ")(?:\\.(?:[a-z0-9*-]+|<name>))+";
            token = Pattern.compile("(?<key>" + key + "|<name>|MAILRUN_[A-Z0-9_]+)|docs/(?<doc>[\\w/.-]+?\\.md)");
        }

        String text(String plain) {
            StringBuilder out = new StringBuilder();
            Matcher m = token.matcher(plain);
            int at = 0;
            while (m.find()) {
                out.append(escape(plain.substring(at, m.start())));
                out.append(m.group("key") != null ? "`" + m.group("key") + "`" : "[" + m.group("doc") + "](" + m.group("doc") + ")");
                at = m.end();
            }
            return out.append(escape(plain.substring(at))).toString();
        }

        private static String escape(String s) {
            return s.chars().mapToObj(c -> switch (c) {
                case '|' -> "\\|";
                case '*' -> "\\*";
                case '<' -> "&lt;";
                default -> String.valueOf((char) c);
            }).collect(Collectors.joining());
        }
    }
}
