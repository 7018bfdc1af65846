package dev.mailrun.campaign.hygiene;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/** A list file: one name per line, lower-cased; blank lines and '#' comments ignored. */
final class NameList {

    private NameList() {}

    static Set<String> bundled(String resource) {
        try (InputStream in = NameList.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("bundled list " + resource + " is missing from the jar");
            }
            return read(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read bundled list " + resource + ": " + e.getMessage(), e);
        }
    }

    /** Reads an operator's list file; fails with the path and the reason when it cannot. */
    static Set<String> file(Path path) {
        try (InputStream in = Files.newInputStream(path)) {
            return read(in);
        } catch (IOException e) {
            throw new IllegalArgumentException("import.disposable-list: cannot read " + path + ": " + e, e);
        }
    }

    private static Set<String> read(InputStream in) throws IOException {
        Set<String> names = new LinkedHashSet<>();
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        for (String line; (line = reader.readLine()) != null; ) {
            int hash = line.indexOf('#');
            String name = (hash >= 0 ? line.substring(0, hash) : line).strip().toLowerCase(Locale.ROOT);
            if (!name.isEmpty()) {
                names.add(name);
            }
        }
        return names;
    }
}
