package dev.mailrun.http.console;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * {@code /console/console.css}: the console's one style sheet, a file of ours, so that the pages'
 * policy can forbid inline style and script alike ({@code style-src 'self'}).
 */
final class Stylesheet {

    private static final String CSS = load();

    private Stylesheet() {}

    static Answer answer() {
        return new Answer.Document("text/css; charset=utf-8", CSS, "default-src 'none'; frame-ancestors 'none'");
    }

    private static String load() {
        try (InputStream in = Stylesheet.class.getResourceAsStream("/console/console.css")) {
            if (in == null) {
                throw new IllegalStateException("console/console.css is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
