package dev.mailrun.mail.bounce;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads the bodies of message/delivery-status and message/feedback-report parts: groups of
 * "Name: value" fields separated by blank lines, with folded continuation lines.
 */
final class HeaderBlocks {

    private HeaderBlocks() {}

    /** Each block as a map from lower-cased field name to its unfolded value (first occurrence wins). */
    static List<Map<String, String>> parse(String text) {
        List<Map<String, String>> blocks = new ArrayList<>();
        Map<String, String> current = new LinkedHashMap<>();
        String lastName = null;
        for (String line : text.split("\r?\n", -1)) {
            if (line.isBlank()) {
                if (!current.isEmpty()) {
                    blocks.add(current);
                    current = new LinkedHashMap<>();
                }
                lastName = null;
            } else if ((line.charAt(0) == ' ' || line.charAt(0) == '\t') && lastName != null) {
                current.computeIfPresent(lastName, (k, v) -> v + " " + line.strip());
            } else {
                int colon = line.indexOf(':');
                if (colon > 0) {
                    lastName = line.substring(0, colon).strip().toLowerCase(Locale.ROOT);
                    current.putIfAbsent(lastName, line.substring(colon + 1).strip());
                }
            }
        }
        if (!current.isEmpty()) {
            blocks.add(current);
        }
        return blocks;
    }

    /** "rfc822; <a@b>" becomes "a@b": the address type and any angle brackets are dropped. */
    static String address(String typedValue) {
        String v = typedValue;
        int semicolon = v.indexOf(';');
        if (semicolon >= 0) {
            v = v.substring(semicolon + 1);
        }
        v = v.strip();
        if (v.startsWith("<") && v.endsWith(">")) {
            v = v.substring(1, v.length() - 1).strip();
        }
        return v;
    }

    /** "smtp; 550 5.1.1 ..." becomes "550 5.1.1 ...", whitespace collapsed. */
    static String diagnostic(String typedValue) {
        String v = typedValue;
        int semicolon = v.indexOf(';');
        if (semicolon >= 0 && semicolon < 12) {
            v = v.substring(semicolon + 1);
        }
        return v.strip().replaceAll("\\s+", " ");
    }
}
