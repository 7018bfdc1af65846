package dev.mailrun.mail.template;

import dev.mailrun.mail.HeaderValues;
import io.pebbletemplates.pebble.error.PebbleException;
import io.pebbletemplates.pebble.template.PebbleTemplate;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A template whose three files compiled; compile once per run, then {@link #render} per recipient.
 * Safe to render from several threads at once.
 */
public final class CompiledTemplate {

    private final String name;
    private final PebbleTemplate subject;
    private final PebbleTemplate text;
    private final PebbleTemplate html;
    private final Map<String, String> sources;
    private final Map<String, List<FieldUse>> usesByFile;
    private final TemplateDefaults defaults;
    private final OutputSize subjectSize = new OutputSize();
    private final OutputSize textSize = new OutputSize();
    private final OutputSize htmlSize = new OutputSize();
    private final StaticText textStatics;
    private final StaticText htmlStatics;
    private final List<URI> trackedLinks;
    private final Optional<LinkTracking> tracking;

    CompiledTemplate(String name, PebbleTemplate subject, PebbleTemplate text, PebbleTemplate html,
                     Map<String, String> sources, TemplateDefaults defaults) {
        this(name, subject, text, html, sources, defaults, Optional.empty(), List.of());
    }

    CompiledTemplate(String name, PebbleTemplate subject, PebbleTemplate text, PebbleTemplate html,
                     Map<String, String> sources, TemplateDefaults defaults, Optional<LinkTracking> tracking,
                     List<URI> trackedLinks) {
        this.tracking = Objects.requireNonNull(tracking, "tracking");
        this.trackedLinks = List.copyOf(trackedLinks);
        this.name = Objects.requireNonNull(name, "name");
        this.subject = subject;
        this.text = text;
        this.html = html;
        this.sources = Map.copyOf(sources);
        this.defaults = Objects.requireNonNull(defaults, "defaults");
        Map<String, List<FieldUse>> uses = new LinkedHashMap<>();
        uses.put(TemplateLoader.SUBJECT, FieldScanner.scan(subject.getRootNode()));
        uses.put(TemplateLoader.TEXT, FieldScanner.scan(text.getRootNode()));
        // The tracking fields are filled in by mailrun for every recipient of a tracked run, never imported.
        uses.put(TemplateLoader.HTML, FieldScanner.scan(html.getRootNode()).stream()
                .filter(use -> !use.name().equals(TrackedHtml.CLICK_FIELD) && !use.name().equals(TrackedHtml.OPEN_FIELD))
                .toList());
        this.usesByFile = Map.copyOf(uses);
        this.textStatics = StaticText.of(text);
        this.htmlStatics = StaticText.of(html);
    }

    public String name() {
        return name;
    }

    /**
     * The links of the HTML part rewritten for tracking, in the order of their index (what
     * {@code <base>/c/<token>} redirects to); empty for a template loaded without tracking.
     */
    public List<URI> trackedLinks() {
        return trackedLinks;
    }

    /**
     * Whether the HTML part carries the open image: loaded to track opens, and the image adds no spam
     * signal to it ({@link TrackedHtml}).
     */
    public boolean openImage() {
        String source = sources.get(TemplateLoader.HTML);
        return source != null && source.contains("{{ " + TrackedHtml.OPEN_FIELD + " }}");
    }

    /** What the template was loaded to track; empty: loaded as written ({@link TemplateLoader#load(String)}). */
    public Optional<LinkTracking> tracking() {
        return tracking;
    }

    /** What {@code template.properties} gives: the From and Reply-To a campaign without its own takes. */
    public TemplateDefaults defaults() {
        return defaults;
    }

    /** Fields used without a default anywhere in the template, in order of first use: every recipient must have them. */
    Set<String> requiredFields() {
        Set<String> required = new LinkedHashSet<>();
        for (String file : TemplateLoader.FILES) {
            usesByFile.get(file).stream().filter(use -> !use.optional()).forEach(use -> required.add(use.name()));
        }
        return Collections.unmodifiableSet(required);
    }

    /**
     * The imported columns every recipient must have, sorted by name: the fields used without a
     * default less the built-in ones mailrun fills in for every recipient ({@link MergeFields#BUILT_IN}).
     */
    public SortedSet<String> requiredColumns() {
        SortedSet<String> columns = new TreeSet<>(requiredFields());
        columns.removeAll(MergeFields.BUILT_IN);
        return Collections.unmodifiableSortedSet(columns);
    }

    /** Every field the template reads, with or without a default. */
    Set<String> usedFields() {
        Set<String> used = new LinkedHashSet<>();
        usesByFile.values().forEach(uses -> uses.forEach(use -> used.add(use.name())));
        return Set.copyOf(used);
    }

    /** Whether any part reads {@code web_url}: a message of a template that does not needs no link signed. */
    public boolean usesWebUrl() {
        return usesByFile.values().stream().anyMatch(uses -> uses.stream().anyMatch(use -> use.name().equals(MergeFields.WEB_URL)));
    }

    /** Whether any part reads {@code preferences_url}: a message of a template that does not needs no link signed. */
    public boolean usesPreferencesUrl() {
        return usesByFile.values().stream()
                .anyMatch(uses -> uses.stream().anyMatch(use -> use.name().equals(MergeFields.PREFERENCES_URL)));
    }

    /** Every field the subject reads, with or without a default: their values end up in a header. */
    public Set<String> subjectFields() {
        Set<String> used = new LinkedHashSet<>();
        usesByFile.get(TemplateLoader.SUBJECT).forEach(use -> used.add(use.name()));
        return Set.copyOf(used);
    }

    /**
     * Every required field that is not in {@code availableFields}, reported once per file at its
     * first use, so a campaign cannot start with a template its recipients cannot fill.
     */
    public List<TemplateProblem> check(Set<String> availableFields) {
        List<TemplateProblem> problems = new ArrayList<>();
        for (String file : TemplateLoader.FILES) {
            problems.addAll(unknownFields(name, file, sources.get(file), usesByFile.get(file), availableFields));
        }
        return List.copyOf(problems);
    }

    static List<TemplateProblem> unknownFields(String name, String file, String source, List<FieldUse> uses,
                                               Set<String> availableFields) {
        List<TemplateProblem> problems = new ArrayList<>();
        Set<String> reported = new LinkedHashSet<>();
        for (FieldUse use : uses) {
            if (!use.optional() && !availableFields.contains(use.name()) && reported.add(use.name())) {
                int column = Columns.ofName(source, use.line(), use.name());
                problems.add(new TemplateProblem(name + "/" + file, use.line(), column,
                        "unknown field '" + use.name() + "': recipients do not have it; add it to the import, "
                                + "or write {{ " + use.name() + " | default(\"...\") }}"));
            }
        }
        return problems;
    }

    /**
     * Renders one recipient. The HTML part escapes inserted values; the text part and the subject
     * do not. A missing field or a line break in the subject rejects the recipient.
     */
    public RenderResult render(Map<String, Object> values) {
        return render(values, false);
    }

    /**
     * Renders one recipient with both bodies straight to the bytes they go out with as 7bit
     * ({@link RenderResult.RenderedSevenBit}); when either cannot go so (a merge value outside
     * ASCII, a line too long), as {@link #render} does. The outcome is the same message either way.
     *
     * <p>Why: the bodies of a campaign are mostly the template's static text. Rendered as text, the
     * composer then encoded, checked and converted each body's every character again for every
     * recipient; here the static pieces were converted once ({@link StaticText}) and are copied.
     * A template whose own static text cannot go out 7bit is rendered as text straight away.
     */
    public RenderResult renderSevenBit(Map<String, Object> values) {
        // A template whose own static text keeps a body from going 7bit is not tried per recipient.
        return render(values, triesSevenBit());
    }

    /** Whether {@link #renderSevenBit} tries the 7bit way: only when all the bodies' static text can go so. */
    boolean triesSevenBit() {
        return textStatics.allConverted() && htmlStatics.allConverted();
    }

    /** How many static pieces of the two bodies are converted once: for tests. */
    int convertedPieces() {
        return textStatics.size() + htmlStatics.size();
    }

    /** With {@code sevenBit}, the bodies are tried as 7bit bytes first; rendered as text when they cannot go so. */
    private RenderResult render(Map<String, Object> values, boolean sevenBit) {
        Objects.requireNonNull(values, "values");
        try {
            String renderedSubject = evaluate(subject, values, subjectSize);
            Optional<String> headerProblem = HeaderValues.check("Subject", renderedSubject);
            if (headerProblem.isPresent()) {
                return new RenderResult.Rejected(headerProblem.get());
            }
            if (sevenBit) {
                SevenBitBody textBody = evaluateSevenBit(text, textStatics, values, textSize);
                SevenBitBody htmlBody = textBody == null ? null : evaluateSevenBit(html, htmlStatics, values, htmlSize);
                if (htmlBody != null) {
                    return new RenderResult.RenderedSevenBit(renderedSubject, textBody, htmlBody);
                }
            }
            return new RenderResult.Rendered(new RenderedContent(renderedSubject, evaluate(text, values, textSize),
                    evaluate(html, values, htmlSize)));
        } catch (PebbleException e) {
            return new RenderResult.Rejected(name + "/" + e.getFileName() + ":" + e.getLineNumber()
                    + ": " + e.getPebbleMessage());
        }
    }

    /**
     * One body as 7bit bytes; null when it cannot go so. The writer stops the render at the first
     * character that cannot ({@link SevenBitWriter.Refused}), so a recipient whose name is not
     * ASCII costs little more than rendering as text. Whatever Pebble makes of that stop, the body
     * is then rendered as text, which reports a template error of its own if there is one.
     */
    private static SevenBitBody evaluateSevenBit(PebbleTemplate template, StaticText statics, Map<String, Object> values,
                                                 OutputSize size) {
        SevenBitWriter out = new SevenBitWriter(statics, size.hint());
        try {
            template.evaluate(out, values, Locale.ROOT);
        } catch (IOException | PebbleException e) {
            if (out.refused()) {
                return null;
            }
            if (e instanceof PebbleException pebble) {
                throw pebble;
            }
            throw new UncheckedIOException("writing to memory cannot fail", (IOException) e);
        }
        SevenBitBody body = out.body();
        if (body != null) {
            size.saw(body.length());
        }
        return body;
    }

    private static String evaluate(PebbleTemplate template, Map<String, Object> values, OutputSize size) {
        TextBuffer out = new TextBuffer(size.hint());
        try {
            template.evaluate(out, values, Locale.ROOT);
        } catch (IOException e) {
            throw new UncheckedIOException("writing to a string cannot fail", e);
        }
        String rendered = out.toString();
        size.saw(rendered.length());
        return rendered;
    }

    /**
     * The room to start a file's output with: a little more than its largest output so far, so
     * the builder is not grown and copied on every recipient (a 5 KB HTML part grew twice from a
     * fixed 4 KB start). Updated without locking: a lost update only costs one more growth.
     */
    private static final class OutputSize {
        private static final int SLACK = 256;
        private volatile int largest;

        int hint() {
            return largest + SLACK;
        }

        void saw(int length) {
            if (length > largest) {
                largest = length;
            }
        }
    }
}
