package dev.mailrun.mail.template;

import io.pebbletemplates.pebble.PebbleEngine;
import io.pebbletemplates.pebble.error.PebbleException;
import io.pebbletemplates.pebble.template.PebbleTemplate;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads and compiles {@code <templatesDir>/<name>/}: {@code subject.txt}, {@code body.txt},
 * {@code body.html} and the optional {@code template.properties}.
 *
 * <p>Every problem is collected before anything is returned, so an author fixes a template in
 * one pass rather than one error per run.
 */
public final class TemplateLoader {

    public static final String SUBJECT = "subject.txt";
    public static final String TEXT = "body.txt";
    public static final String HTML = "body.html";
    public static final String PROPERTIES = "template.properties";
    static final List<String> FILES = List.of(SUBJECT, TEXT, HTML);
    /** Every part a template may have, the required ones first. */
    public static final List<String> PARTS = List.of(SUBJECT, TEXT, HTML, PROPERTIES);

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");

    private final Path templatesDir;

    public TemplateLoader(Path templatesDir) {
        this.templatesDir = Objects.requireNonNull(templatesDir, "templatesDir");
    }

    /** Whether {@code <templatesDir>/<name>/} is there to read: an author writes the template here. */
    public boolean has(String name) {
        return name != null && NAME.matcher(name).matches() && Files.isDirectory(templatesDir.resolve(name));
    }

    /** Compiles the template, or lists every missing file, encoding error and syntax error. */
    public LoadResult load(String name) {
        return attempt(name, Optional.empty()).result();
    }

    /**
     * Compiles the template with its HTML part's links rewritten for {@code tracking}
     * ({@link TrackedHtml}): what a tracked campaign's run sends. The text part and the subject are
     * as {@link #load} compiles them.
     */
    public LoadResult load(String name, LinkTracking tracking) {
        return attempt(name, Optional.of(tracking)).result();
    }

    /** What one compilation produced, including the files that compiled when others did not. */
    private record Attempt(LoadResult result, Map<String, String> sources, Map<String, PebbleTemplate> compiled) {}

    private Attempt attempt(String name, Optional<LinkTracking> tracking) {
        Read read = read(name);
        return attempt(read.source(), new ArrayList<>(read.problems()), tracking);
    }

    /**
     * Reads {@code <templatesDir>/<name>/} into memory, or lists what could not be read (a missing
     * file, one that is not UTF-8): what {@code template import} stores.
     */
    public Read read(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            return new Read(new TemplateSource(String.valueOf(name), Map.of()), List.of(new TemplateProblem(String.valueOf(name), 0, 0,
                    "template names are letters, digits, '-' and '_' (at most 64), starting with a letter or digit")));
        }
        List<TemplateProblem> problems = new ArrayList<>();
        Map<String, String> sources = new HashMap<>();
        for (String file : PARTS) {
            readFile(name, file, !file.equals(PROPERTIES), problems).ifPresent(source -> sources.put(file, source));
        }
        return new Read(new TemplateSource(name, sources), problems);
    }

    /** A template directory read into memory, with what could not be read. */
    public record Read(TemplateSource source, List<TemplateProblem> problems) {
        public Read {
            problems = List.copyOf(problems);
        }
    }

    /**
     * Compiles a template held in memory (a stored version), or lists every problem, each as
     * {@code name/part:line:column: message}: the same checks as a directory's.
     */
    public static LoadResult compile(TemplateSource source, Optional<LinkTracking> tracking) {
        if (!NAME.matcher(source.name()).matches()) {
            return new LoadResult.Invalid(List.of(new TemplateProblem(source.name(), 0, 0,
                    "template names are letters, digits, '-' and '_' (at most 64), starting with a letter or digit")));
        }
        List<TemplateProblem> problems = new ArrayList<>();
        for (String file : FILES) {
            if (source.part(file).isEmpty()) {
                problems.add(new TemplateProblem(source.name() + "/" + file, 0, 0, "missing part " + file));
            }
        }
        return attempt(source, problems, tracking).result();
    }

    private static Attempt attempt(TemplateSource source, List<TemplateProblem> problems, Optional<LinkTracking> tracking) {
        String name = source.name();
        Map<String, String> sources = new HashMap<>();
        for (String file : FILES) {
            source.part(file).ifPresent(text -> sources.put(file, text));
        }
        TemplateDefaults defaults = source.part(PROPERTIES)
                .map(text -> TemplateProperties.parse(name + "/" + PROPERTIES, text, problems))
                .orElse(TemplateDefaults.NONE);
        if (sources.containsKey(SUBJECT)) {
            // The file's final newline is not part of the subject; any other line break is an error
            // here rather than a rejected recipient later.
            String subject = sources.get(SUBJECT).stripTrailing();
            sources.put(SUBJECT, subject);
            int newline = subject.indexOf('\n');
            if (newline >= 0) {
                int line = (int) subject.substring(0, newline).chars().filter(c -> c == '\n').count() + 2;
                problems.add(new TemplateProblem(name + "/" + SUBJECT, line, 1, "the subject must be a single line"));
            }
        }
        List<java.net.URI> links = List.of();
        if (tracking.isPresent() && sources.containsKey(HTML)) {
            // Rewritten before compiling, so the static text around the links is converted once per run.
            TrackedHtml.Rewritten rewritten = TrackedHtml.rewrite(sources.get(HTML), tracking.get());
            sources.put(HTML, rewritten.source());
            links = rewritten.links();
        }
        Map<String, PebbleTemplate> compiled = compile(name, sources, problems);
        if (!problems.isEmpty()) {
            return new Attempt(new LoadResult.Invalid(problems), sources, compiled);
        }
        return new Attempt(new LoadResult.Loaded(new CompiledTemplate(name, compiled.get(SUBJECT), compiled.get(TEXT),
                compiled.get(HTML), sources, defaults, tracking, links)), sources, compiled);
    }

    /**
     * Everything that would stop a campaign from starting with this template and these recipient
     * fields: what {@link #load} reports, then every field used without a default that is missing.
     */
    public List<TemplateProblem> check(String name, Set<String> availableFields) {
        Attempt attempt = attempt(name, Optional.empty());
        if (attempt.result() instanceof LoadResult.Loaded loaded) {
            return loaded.template().check(availableFields);
        }
        // Report unknown fields in the files that did compile too: every problem at once.
        List<TemplateProblem> problems = new ArrayList<>(((LoadResult.Invalid) attempt.result()).problems());
        for (String file : FILES) {
            PebbleTemplate t = attempt.compiled().get(file);
            if (t != null) {
                problems.addAll(CompiledTemplate.unknownFields(name, file, attempt.sources().get(file),
                        FieldScanner.scan(t.getRootNode()), availableFields));
            }
        }
        return List.copyOf(problems);
    }

    private static Map<String, PebbleTemplate> compile(String name, Map<String, String> sources,
                                                List<TemplateProblem> problems) {
        SourceLoader loader = new SourceLoader(sources);
        PebbleEngine html = engine(loader, true);
        PebbleEngine plain = engine(loader, false);
        Map<String, PebbleTemplate> compiled = new HashMap<>();
        for (String file : FILES) {
            if (!sources.containsKey(file)) {
                continue;
            }
            try {
                compiled.put(file, (file.equals(HTML) ? html : plain).getTemplate(file));
            } catch (PebbleException e) {
                int line = e.getLineNumber() == null ? 1 : Math.max(1, e.getLineNumber());
                problems.add(new TemplateProblem(name + "/" + file, line,
                        Columns.ofFirstTag(sources.get(file), line), e.getPebbleMessage()));
            } catch (RuntimeException e) {
                // The engine's parser fails this way on some unterminated constructs (an unclosed
                // macro runs off the end of the token stream); it is still the author's syntax error.
                problems.add(new TemplateProblem(name + "/" + file, 1, 1,
                        "syntax error: the template ends inside an unclosed tag or block (" + e.getClass().getSimpleName() + ")"));
            }
        }
        return compiled;
    }

    private static PebbleEngine engine(SourceLoader loader, boolean escapeHtml) {
        return new PebbleEngine.Builder()
                .loader(loader)
                .strictVariables(true)
                .autoEscaping(escapeHtml)
                .defaultEscapingStrategy("html")
                // Keep every newline the author wrote: trimming after tags would also join a line
                // ending in {{ field }} to the next one in the text part. {%- -%} trims on request.
                .newLineTrimming(false)
                // Compiled once per run by the caller; a cache would only keep sources alive.
                .cacheActive(false)
                .build();
    }

    private java.util.Optional<String> readFile(String name, String file, boolean required,
                                                List<TemplateProblem> problems) {
        Path path = templatesDir.resolve(name).resolve(file);
        try {
            byte[] bytes = Files.readAllBytes(path);
            return java.util.Optional.of(StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString());
        } catch (NoSuchFileException e) {
            if (required) {
                problems.add(new TemplateProblem(name + "/" + file, 0, 0, "missing file " + path));
            }
        } catch (CharacterCodingException e) {
            problems.add(new TemplateProblem(name + "/" + file, 0, 0, "not valid UTF-8"));
        } catch (IOException e) {
            problems.add(new TemplateProblem(name + "/" + file, 0, 0, "cannot read " + path + ": " + e));
        }
        return java.util.Optional.empty();
    }
}
