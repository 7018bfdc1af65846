package dev.mailrun.campaign.content;

import java.util.regex.Pattern;

/**
 * Plain text written a piece at a time, as {@link PlainTextOf} walks an HTML body: runs of spaces
 * collapse to one, line breaks asked for by blocks are owed and written only before the next text
 * (so none lead, trail or pile up), and no line ends in spaces.
 */
final class TextLines {

    private static final Pattern SPACES = Pattern.compile("[\\s\\u00A0]+");

    private final StringBuilder out = new StringBuilder();
    /** Line breaks owed before the next text: 1 starts a new line, 2 leaves a blank line. */
    private int breaks;
    /** A space owed before the next text on the same line. */
    private boolean space;
    /** Nothing written since a list item's marker: a paragraph inside the item starts on its line. */
    private boolean afterMarker;

    /** Running text: whitespace of any kind and length is one space. */
    void inline(String raw) {
        String text = SPACES.matcher(raw).replaceAll(" ");
        if (text.isEmpty()) {
            return;
        }
        if (text.startsWith(" ")) {
            space = true;
            text = text.substring(1);
        }
        boolean trailing = text.endsWith(" ");
        if (trailing) {
            text = text.substring(0, text.length() - 1);
        }
        if (!text.isEmpty()) {
            write(text);
        }
        space |= trailing;
    }

    /** Text as it stands, its line breaks kept (a {@code <pre>} block). */
    void verbatim(String text) {
        String trimmed = text.replaceFirst("^\\R", "").stripTrailing();
        if (!trimmed.isEmpty()) {
            write(trimmed);
        }
    }

    /** A piece of our own that the next text follows directly: a list marker, a link's number. */
    void word(String word) {
        write(word);
    }

    /**
     * A list item's marker, on a new line: the line after the previous item's, even when that item
     * ended in a paragraph (a loose Markdown list), so a list reads as one.
     */
    void marker(String marker, boolean first) {
        if (first) {
            line();
        } else {
            breaks = 1;
            space = false;
        }
        write(marker);
        afterMarker = true;
    }

    /** A space before the next text on this line. */
    void space() {
        space = true;
    }

    /** The next text starts a new line. */
    void line() {
        owe(1);
    }

    /** The next text starts after a blank line. */
    void block() {
        owe(2);
    }

    /** A {@code <br>}: each one a line break, two a blank line. */
    void lineBreak() {
        breaks = Math.min(2, breaks + 1);
        space = false;
    }

    private void owe(int lineBreaks) {
        if (!afterMarker) {
            breaks = Math.max(breaks, lineBreaks);
            space = false;
        }
    }

    private void write(String text) {
        if (out.length() > 0 && breaks > 0) {
            out.append("\n".repeat(breaks));
        } else if (space && out.length() > 0 && !endsInSpace()) {
            out.append(' ');
        }
        breaks = 0;
        space = false;
        afterMarker = false;
        out.append(text);
    }

    private boolean endsInSpace() {
        char last = out.charAt(out.length() - 1);
        return last == ' ' || last == '\n';
    }

    /** What was written, no line ending in spaces, without a final line break. */
    String text() {
        return out.toString().replaceAll("[ \\t]+(?=\\n|$)", "").replaceAll("\\n{3,}", "\n\n").strip();
    }
}
