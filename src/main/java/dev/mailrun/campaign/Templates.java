package dev.mailrun.campaign;

import dev.mailrun.campaign.content.Contents;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.mail.template.CompiledTemplate;
import dev.mailrun.mail.template.LoadResult;
import dev.mailrun.mail.template.MergeFields;
import dev.mailrun.mail.template.RenderResult;
import dev.mailrun.mail.template.RenderedContent;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.mail.template.TemplateProblem;
import dev.mailrun.mail.template.TemplateSource;
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
 * The templates a campaign may be created from — stored ones and those written under
 * {@code templates.dir} — their names, what each needs of a recipient, and a preview rendered with
 * given fields: the checks of {@code template check}, then a render; the same preview of a stored
 * version. A name means what creating a campaign from it would pin ({@link Contents}).
 */
public final class Templates {

    /** A template's name, whether it compiles, its problems, and the columns every recipient needs. */
    public record Described(String name, List<TemplateProblem> problems, SortedSet<String> requiredColumns) {}

    /** A preview: the rendered parts, or the problems that keep it from rendering. */
    public record Preview(List<TemplateProblem> problems, Optional<RenderedContent> content, Optional<String> rejected) {}

    private final Path dir;
    private final TemplateLoader loader;
    private final Optional<Contents> stored;

    /** The folders under {@code dir} only: what {@code template import} reads. */
    public Templates(Path dir) {
        this(dir, Optional.empty());
    }

    /** The stored templates and the folders under {@code dir}, each name as {@code contents} resolves it. */
    public Templates(Path dir, Optional<Contents> stored) {
        this.dir = dir;
        this.loader = new TemplateLoader(dir);
        this.stored = stored;
    }

    /** The template names, stored or written in a folder, sorted. */
    public List<String> names() {
        java.util.TreeSet<String> names = new java.util.TreeSet<>(folders());
        if (stored.isPresent()) {
            try {
                stored.get().store().list().forEach(t -> names.add(t.name()));
            } catch (java.sql.SQLException e) {
                throw new IllegalStateException("the stored templates cannot be read: " + e.getMessage(), e);
            }
        }
        return List.copyOf(names);
    }

    /** The template folders under {@code templates.dir}, by name. */
    public List<String> folders() {
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
        LoadResult result = load(name);
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
        Set<String> available = MergeFields.available(Set.copyOf(fields.keySet()));
        List<TemplateProblem> problems = stored.map(c -> c.check(name, available)).orElseGet(() -> loader.check(name, available));
        if (!problems.isEmpty()) {
            return new Preview(problems, Optional.empty(), Optional.empty());
        }
        return render(((LoadResult.Loaded) load(name)).template(), email, recipientName, fields);
    }

    /**
     * Renders a template held in memory (a stored version) for a recipient, with the same checks and
     * render as {@link #preview(String, String, String, Map)}: its problems with these fields first.
     */
    public static Preview preview(TemplateSource source, String email, String recipientName, Map<String, String> fields) {
        LoadResult loaded = TemplateLoader.compile(source, Optional.empty());
        if (loaded instanceof LoadResult.Invalid invalid) {
            return new Preview(invalid.problems(), Optional.empty(), Optional.empty());
        }
        CompiledTemplate template = ((LoadResult.Loaded) loaded).template();
        List<TemplateProblem> problems = template.check(MergeFields.available(Set.copyOf(fields.keySet())));
        if (!problems.isEmpty()) {
            return new Preview(problems, Optional.empty(), Optional.empty());
        }
        return render(template, email, recipientName, fields);
    }

    /** The render a real message gets, with a placeholder unsubscribe link. */
    private static Preview render(CompiledTemplate template, String email, String recipientName, Map<String, String> fields) {
        Map<String, Object> values = new HashMap<>(MergeFields.of(email, recipientName, fields,
                "https://unsubscribe.invalid/preview", "https://web-version.invalid/preview", "preview"));
        RenderResult r = template.render(values);
        if (r instanceof RenderResult.Rendered rendered) {
            return new Preview(List.of(), Optional.of(rendered.content()), Optional.empty());
        }
        return new Preview(List.of(), Optional.empty(), Optional.of(((RenderResult.Rejected) r).reason()));
    }

    /** What creating a campaign from {@code name} would send, compiled. */
    private LoadResult load(String name) {
        return stored.map(c -> c.load(name)).orElseGet(() -> loader.load(name));
    }

    private void requireExists(String name) {
        if (name == null || !name.matches("[A-Za-z0-9][A-Za-z0-9_-]{0,63}") || !names().contains(name)) {
            throw new CampaignException("no template named " + name);
        }
    }
}
