package dev.mailrun;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link in README.md and docs/ leads somewhere: the file it names exists and, for a
 * Markdown file, the anchor after {@code #} is one of its headings. Docs are split and sections
 * renamed often; a link left pointing at a section that moved fails here, not in a reader's browser.
 */
class DocLinksTest {

    /** The target of an inline link, {@code [text](target)} or {@code [text](target "title")}. */
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern CODE_SPAN = Pattern.compile("`[^`]*`");
    private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)(?:\\s+#+)?\\s*$");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:name|id)=\"([^\"]+)\"");
    private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");

    @Test
    void every_relative_link_in_the_docs_names_a_file_that_exists_and_a_heading_it_has() throws IOException {
        List<String> broken = new ArrayList<>();
        Map<Path, Set<String>> anchorsByFile = new HashMap<>();
        for (Path doc : docs()) {
            List<String> lines = proseLines(doc);
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = LINK.matcher(CODE_SPAN.matcher(lines.get(i)).replaceAll("``"));
                while (m.find()) {
                    String problem = problem(doc, m.group(1), anchorsByFile);
                    if (problem != null) {
                        broken.add(doc + ":" + (i + 1) + ": (" + m.group(1) + ") " + problem);
                    }
                }
            }
        }
        assertThat(broken).withFailMessage("%d broken links:%n%s", broken.size(), String.join("\n", broken))
                .isEmpty();
    }

    @Test
    void anchors_are_made_from_headings_as_github_makes_them() {
        assertThat(anchors(List.of(
                "## Where the targets stand",
                "### Endpoint (`http.UnsubscribeHandler`, on `http.bind:http.port`)",
                "## Sending calendar: daily cap, warm-up, windows, expiry",
                "### \"Too fast\" replies (`mail.smtp.TooFast`)",
                "## Tests",
                "## Tests",
                "## See [MAIL.md](MAIL.md) — Größe")))
                .containsExactlyInAnyOrder(
                        "where-the-targets-stand",
                        "endpoint-httpunsubscribehandler-on-httpbindhttpport",
                        "sending-calendar-daily-cap-warm-up-windows-expiry",
                        "too-fast-replies-mailsmtptoofast",
                        "tests",
                        "tests-1",
                        "see-mailmd--größe");
    }

    private static List<Path> docs() throws IOException {
        List<Path> docs = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> files = Files.walk(Path.of("docs"))) {
            files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        return docs;
    }

    /** What is wrong with a link from {@code doc} to {@code target}, or null when it leads somewhere. */
    private static String problem(Path doc, String target, Map<Path, Set<String>> anchorsByFile) throws IOException {
        if (SCHEME.matcher(target).find()) {
            return null;   // http:, https:, mailto: — outside the repository
        }
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        Path file = path.isEmpty() ? doc : doc.resolveSibling(decode(path)).normalize();
        if (!Files.exists(file)) {
            return "no such file: " + file;
        }
        if (hash < 0 || !file.toString().endsWith(".md")) {
            return null;
        }
        String anchor = decode(target.substring(hash + 1));
        Set<String> anchors = anchorsByFile.computeIfAbsent(file, DocLinksTest::anchorsOf);
        return anchors.contains(anchor) ? null : "no heading in " + file + " makes the anchor #" + anchor;
    }

    private static Set<String> anchorsOf(Path file) {
        try {
            List<String> lines = proseLines(file);
            Set<String> anchors = anchors(lines);
            for (String line : lines) {
                Matcher m = HTML_ANCHOR.matcher(line);
                while (m.find()) {
                    anchors.add(m.group(1));
                }
            }
            return anchors;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The anchors GitHub gives a file's headings, a repeated one numbered from -1 on. */
    private static Set<String> anchors(List<String> lines) {
        Set<String> anchors = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : lines) {
            Matcher m = HEADING.matcher(line);
            if (m.matches()) {
                String slug = slug(m.group(2));
                int count = seen.merge(slug, 1, Integer::sum);
                anchors.add(count == 1 ? slug : slug + "-" + (count - 1));
            }
        }
        return anchors;
    }

    /**
     * GitHub's rule: the heading's text as shown (a link's text without its target), lower case,
     * every character but letters, digits, marks, {@code _}, {@code -} and spaces dropped, then each
     * space a {@code -}.
     */
    static String slug(String heading) {
        String shown = heading.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1");
        return shown.toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{M}\\p{N}\\p{Pc} -]", "")
                .replace(' ', '-');
    }

    /** The file's lines with fenced code blocks blanked: a {@code #} or {@code ](} in code is neither heading nor link. */
    private static List<String> proseLines(Path file) throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(file, StandardCharsets.UTF_8));
        String fence = null;
        for (int i = 0; i < lines.size(); i++) {
            String trimmed = lines.get(i).stripLeading();
            if (fence == null && (trimmed.startsWith("```") || trimmed.startsWith("~~~"))) {
                fence = trimmed.substring(0, 3);
                lines.set(i, "");
            } else if (fence != null) {
                if (trimmed.startsWith(fence)) {
                    fence = null;
                }
                lines.set(i, "");
            }
        }
        return lines;
    }

    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }
}
