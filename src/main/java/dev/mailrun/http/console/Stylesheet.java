package dev.mailrun.http.console;

import dev.mailrun.http.status.StatusCharts;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * {@code /console/console.css}: the console's one style sheet, a file of ours, so that the pages'
 * policy can forbid inline style and script alike ({@code style-src 'self'}); the campaign page's
 * charts bring their own styles ({@link StatusCharts#CSS}), served here after the console's.
 */
final class Stylesheet {

    private static final String CSS = load() + "\n/* The charts, as the status page draws them. */\n" + StatusCharts.CSS;

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
