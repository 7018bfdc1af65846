package dev.mailrun.mail.template;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Columns for template problems. Pebble records only line numbers, so the column is found in the
 * source: the first use of a name inside a tag on that line, or the first tag on a line with a
 * syntax error (the tag is where the parser stopped understanding the line).
 */
final class Columns {

    private Columns() {
    }

    static int ofName(String source, int line, String name) {
        String text = line(source, line);
        int tagStart = Math.max(0, firstTag(text));
        Matcher matcher = Pattern.compile("(?<![\\w.])" + Pattern.quote(name) + "(?!\\w)").matcher(text);
        if (matcher.find(tagStart)) {
            return matcher.start() + 1;
        }
        return 1;
    }

    static int ofFirstTag(String source, int line) {
        int tag = firstTag(line(source, line));
        return tag < 0 ? 1 : tag + 1;
    }

    private static int firstTag(String text) {
        int print = text.indexOf("{{");
        int execute = text.indexOf("{%");
        if (print < 0) {
            return execute;
        }
        return execute < 0 ? print : Math.min(print, execute);
    }

    private static String line(String source, int line) {
        String[] lines = source.split("\r?\n", -1);
        return line >= 1 && line <= lines.length ? lines[line - 1] : "";
    }
}
