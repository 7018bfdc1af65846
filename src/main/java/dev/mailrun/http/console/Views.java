package dev.mailrun.http.console;

import dev.mailrun.campaign.model.ApiScope;
import io.pebbletemplates.pebble.PebbleEngine;
import io.pebbletemplates.pebble.loader.ClasspathLoader;
import java.io.StringWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;

/**
 * The console's pages, Pebble templates under {@code console/} on the classpath. Every value is
 * HTML-escaped by the engine (autoescaping on, strategy html); a template never marks a value safe.
 * The one value handed over as markup is a campaign's charts, a {@code SafeString} made in Java from
 * {@code http.status.StatusCharts}, which escapes every text it draws.
 * Strict variables: a page that names a value the handler did not give fails, it does not print nothing.
 */
final class Views {

    private final PebbleEngine engine;

    Views() {
        ClasspathLoader loader = new ClasspathLoader(Views.class.getClassLoader());
        loader.setPrefix("console");
        loader.setSuffix(".peb");
        this.engine = new PebbleEngine.Builder().loader(loader).autoEscaping(true).defaultEscapingStrategy("html")
                .strictVariables(true).newLineTrimming(true).build();
    }

    /** The page {@code name} with {@code model}, and what every page shows: who is logged in and the session's form token. */
    String render(String name, ConsoleSession session, Map<String, Object> model) {
        Map<String, Object> values = new HashMap<>(model);
        values.put("user", session == null ? null : user(session));
        values.putIfAbsent("refresh", null);
        ConsoleSession.Flash flash = session == null ? null : session.takeFlash();
        values.put("flash", flash == null ? null : Map.of("error", flash.error(), "text", flash.text()));
        StringWriter out = new StringWriter(4_096);
        try {
            engine.getTemplate(name).evaluate(out, values);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /** What the layout knows of the person logged in: the token's name, the form token, and which menus and buttons to show. */
    private static Map<String, Object> user(ConsoleSession s) {
        Map<String, Object> user = new HashMap<>();
        user.put("name", s.caller().name());
        user.put("csrf", s.csrf());
        for (ApiScope scope : ApiScope.values()) {
            // campaigns:write -> campaignsWrite
            String[] parts = scope.text().split(":");
            user.put(parts[0] + (parts.length > 1 ? Character.toUpperCase(parts[1].charAt(0)) + parts[1].substring(1) : ""),
                    s.may(scope));
        }
        return user;
    }
}
