package dev.mailrun.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/ARCHITECTURE.md's package tree names every package under {@code src/main/java/dev/mailrun}
 * and no other, so a reader finds each package's job there: a package added, moved or removed
 * fails here until the tree says so.
 */
class PackageTreeTest {

    private static final Path SOURCES = Path.of("src", "main", "java");
    /** A tree line: the drawing, then the package's last name ({@code │   ├── send  the sending task…}). */
    private static final Pattern ENTRY = Pattern.compile("^([│ ]*)[├└]── ([a-z]+)\\b");

    @Test
    void the_package_tree_in_architecture_md_names_every_package_and_no_other() throws IOException {
        assertThat(packagesInTree()).as("the packages docs/ARCHITECTURE.md's tree names (\"The package tree\")")
                .containsExactlyInAnyOrderElementsOf(packagesInSources());
    }

    private static Set<String> packagesInSources() throws IOException {
        Path root = SOURCES.resolve("dev/mailrun");
        try (Stream<Path> dirs = Files.walk(root)) {
            Set<String> packages = new TreeSet<>();
            dirs.filter(Files::isDirectory).filter(PackageTreeTest::holdsJava)
                    .forEach(d -> packages.add(SOURCES.relativize(d).toString().replace('/', '.')));
            return packages;
        }
    }

    private static boolean holdsJava(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.anyMatch(f -> f.toString().endsWith(".java"));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Set<String> packagesInTree() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("docs", "ARCHITECTURE.md"));
        int at = lines.indexOf("## The package tree");
        assertThat(at).as("docs/ARCHITECTURE.md has a section \"The package tree\"").isNotNegative();
        while (!lines.get(at).equals("dev.mailrun")) {
            at++;
        }
        Set<String> packages = new TreeSet<>();
        List<String> path = new ArrayList<>(List.of("dev.mailrun"));
        for (String line : lines.subList(at + 1, lines.size())) {
            if (line.startsWith("```")) {
                break;
            }
            Matcher m = ENTRY.matcher(line);
            if (m.find()) {
                int depth = m.group(1).length() / 4 + 1;
                path.subList(depth, path.size()).clear();
                path.add(m.group(2));
                packages.add(String.join(".", path));
            }
        }
        return packages;
    }
}
