package dev.mailrun.mail.template;

import java.util.Objects;

/**
 * One thing wrong with a template, located precisely enough for an author to fix it.
 *
 * @param file   the file inside the template directory, e.g. {@code body.html}
 * @param line   1-based line; 0 when the problem concerns the whole file (a missing file)
 * @param column 1-based column; 0 when the problem concerns the whole file
 */
public record TemplateProblem(String file, int line, int column, String message) {

    public TemplateProblem {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(message, "message");
        if (line < 0 || column < 0) {
            throw new IllegalArgumentException("line and column must be >= 0, got " + line + ":" + column);
        }
    }

    /**
     * The conventional {@code file:line:column: message} form, as compilers print it; a position that
     * is not known is left out ({@code file: message}, {@code file:line: message}) rather than printed as 0.
     */
    @Override
    public String toString() {
        String at = line == 0 ? "" : ":" + line + (column == 0 ? "" : ":" + column);
        return file + at + ": " + message;
    }
}
