package dev.mailrun.mail.template;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes a template directory for a test. */
final class TemplateFiles {

    private TemplateFiles() {
    }

    static Path write(Path templatesDir, String name, String subject, String text, String html) {
        Path dir = templatesDir.resolve(name);
        try {
            Files.createDirectories(dir);
            if (subject != null) {
                Files.writeString(dir.resolve(TemplateLoader.SUBJECT), subject, StandardCharsets.UTF_8);
            }
            if (text != null) {
                Files.writeString(dir.resolve(TemplateLoader.TEXT), text, StandardCharsets.UTF_8);
            }
            if (html != null) {
                Files.writeString(dir.resolve(TemplateLoader.HTML), html, StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dir;
    }

    static CompiledTemplate load(Path templatesDir, String name) {
        LoadResult result = new TemplateLoader(templatesDir).load(name);
        if (result instanceof LoadResult.Invalid invalid) {
            throw new AssertionError("template did not load: " + invalid.problems());
        }
        return ((LoadResult.Loaded) result).template();
    }
}
