package dev.mailrun.campaign;

import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.mail.template.CompiledTemplate;
import dev.mailrun.mail.template.LoadResult;
import dev.mailrun.mail.template.MergeFields;
import dev.mailrun.mail.template.RenderResult;
import dev.mailrun.mail.template.RenderedContent;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.mail.template.TemplateProblem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.stream.Stream;

/**
 * The templates under {@code templates.dir}: their names, what each needs of a recipient, and a
 * preview rendered with given fields — the checks of {@code template check}, then a render.
 */
public final class Templates {

    /** A template's name, whether it compiles, its problems, and the columns every recipient needs. */
    public record Described(String name, List<TemplateProblem> problems, SortedSet<String> requiredColumns) {}

    /** A preview: the rendered parts, or the problems that keep it from rendering. */
    public record Preview(List<TemplateProblem> problems, Optional<RenderedContent> content, Optional<String> rejected) {}

    private final Path dir;
    private final TemplateLoader loader;

    public Templates(Path dir) {
        this.dir = dir;
        this.loader = new TemplateLoader(dir);
    }

    /** The template folders, by name. */
    public List<String> names() {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.filter(Files::isDirectory).map(p -> p.getFileName().toString())
                    .filter(n -> n.matches("[A-Za-z0-9][A-Za-z0-9_-]{0,63}")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @throws CampaignException when there is no such template folder */
    public Described describe(String name) {
        requireExists(name);
        LoadResult result = loader.load(name);
        if (result instanceof LoadResult.Loaded loaded) {
            return new Described(name, List.of(), loaded.template().requiredColumns());
        }
        return new Described(name, ((LoadResult.Invalid) result).problems(), new java.util.TreeSet<>());
    }

    /**
     * Renders the template for a recipient with {@code email}, {@code name} and the other fields:
     * {@code template check} with those fields first, then the render a real message gets (with a
     * placeholder unsubscribe and web version links).
     */
    public Preview preview(String name, String email, String recipientName, Map<String, String> fields) {
        requireExists(name);
        List<TemplateProblem> problems = loader.check(name, MergeFields.available(Set.copyOf(fields.keySet())));
        if (!problems.isEmpty()) {
            return new Preview(problems, Optional.empty(), Optional.empty());
        }
        CompiledTemplate template = ((LoadResult.Loaded) loader.load(name)).template();
        Map<String, Object> values = new HashMap<>(MergeFields.of(email, recipientName, fields,
                "https://unsubscribe.invalid/preview", "https://web-version.invalid/preview", "preview"));
        RenderResult r = template.render(values);
        if (r instanceof RenderResult.Rendered rendered) {
            return new Preview(List.of(), Optional.of(rendered.content()), Optional.empty());
        }
        return new Preview(List.of(), Optional.empty(), Optional.of(((RenderResult.Rejected) r).reason()));
    }

    private void requireExists(String name) {
        if (name == null || !name.matches("[A-Za-z0-9][A-Za-z0-9_-]{0,63}") || !Files.isDirectory(dir.resolve(name))) {
            throw new CampaignException("no template named " + name);
        }
    }
}
