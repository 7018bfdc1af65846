package dev.mailrun.app.config;

import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Reads the properties file as {@link Properties} would, with what it does not say: the line of
 * every problem. The file must be UTF-8 (a byte sequence that is not names its line), and a key set
 * twice is refused with both lines — {@link Properties} lets the last one win silently, so the value
 * in force would be whichever the operator did not look at. Each logical line (continuations
 * joined) is handed to {@link Properties#load} on its own, so escapes and separators are read
 * exactly as Java reads them.
 */
final class PropertiesFile {

    private PropertiesFile() {}

    /** The keys (trimmed) and values, in file order. */
    static Map<String, String> read(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new ConfigException("configuration file " + file + " does not exist");
        } catch (IOException e) {
            throw new ConfigException("configuration file " + file + " cannot be read: " + e.getMessage());
        }
        List<String> lines = lines(file, bytes);
        Map<String, String> values = new LinkedHashMap<>();
        Map<String, Integer> lineOf = new HashMap<>();
        int i = 0;
        while (i < lines.size()) {
            int first = i;
            StringBuilder logical = new StringBuilder(lines.get(i));
            String stripped = lines.get(i).stripLeading();
            boolean comment = stripped.startsWith("#") || stripped.startsWith("!");
            while (!comment && continues(lines.get(i)) && i + 1 < lines.size()) {
                i++;
                logical.append('\n').append(lines.get(i));
            }
            i++;
            if (comment || stripped.isEmpty()) {
                continue;
            }
            Properties p = new Properties();
            try {
                p.load(new StringReader(logical.toString()));
            } catch (IOException | IllegalArgumentException e) {
                throw new ConfigException("configuration file " + file + " line " + (first + 1) + " cannot be read: " + e.getMessage());
            }
            for (String k : p.stringPropertyNames()) {
                String key = k.trim();
                Integer earlier = lineOf.putIfAbsent(key, first + 1);
                if (earlier != null) {
                    throw new ConfigException("configuration file " + file + " sets " + key + " twice, on lines " + earlier
                            + " and " + (first + 1) + "; keep one");
                }
                values.put(key, p.getProperty(k));
            }
        }
        return values;
    }

    /** The physical lines, each decoded as strict UTF-8 (a leading byte order mark is skipped). */
    private static List<String> lines(Path file, byte[] bytes) {
        int start = bytes.length >= 3 && (bytes[0] & 0xff) == 0xef && (bytes[1] & 0xff) == 0xbb && (bytes[2] & 0xff) == 0xbf ? 3 : 0;
        List<String> lines = new ArrayList<>();
        int lineStart = start;
        for (int p = start; p <= bytes.length; p++) {
            boolean end = p == bytes.length;
            if (end || bytes[p] == '\n' || bytes[p] == '\r') {
                lines.add(decode(file, bytes, lineStart, p, lines.size() + 1));
                if (!end && bytes[p] == '\r' && p + 1 < bytes.length && bytes[p + 1] == '\n') {
                    p++;
                }
                lineStart = p + 1;
            }
        }
        return lines;
    }

    private static String decode(Path file, byte[] bytes, int from, int to, int line) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes, from, to - from)).toString();
        } catch (CharacterCodingException e) {
            throw new ConfigException("configuration file " + file + " line " + line
                    + " is not UTF-8 (save the file as UTF-8; Latin-1 and Windows-1252 are not read)");
        }
    }

    /** A line ending in an odd number of backslashes continues on the next, as in {@link Properties}. */
    private static boolean continues(String line) {
        int n = 0;
        for (int i = line.length() - 1; i >= 0 && line.charAt(i) == '\\'; i--) {
            n++;
        }
        return n % 2 == 1;
    }
}
