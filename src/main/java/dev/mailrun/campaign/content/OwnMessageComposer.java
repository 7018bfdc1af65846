package dev.mailrun.campaign.content;

import dev.mailrun.mail.template.CompiledTemplate;
import dev.mailrun.mail.template.LoadResult;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.mail.template.TemplateProblem;
import dev.mailrun.mail.template.TemplateSource;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Makes a campaign's own message ({@link OwnMessage}) a template: a layout template's parts with
 * the message in the place its {@code {{ content }}} tag holds.
 *
 * <ol>
 *   <li>The message is checked on its own, every problem at once, each located in what the operator
 *       wrote ({@code NAME/subject}, {@code NAME/body:line:column}, {@code NAME/text:line:column}):
 *       the subject one line of at most {@value #MAX_SUBJECT_CHARS} characters, the body and the
 *       text not empty and within the size limit, all three compiling as Pebble templates. The
 *       layout's {@code body.html} and {@code body.txt} must each hold {@code {{ content }}}
 *       (spaces inside the braces or not) exactly once.</li>
 *   <li>{@code subject.txt} is the subject; {@code body.html} the layout's with its tag replaced
 *       by the body (Markdown rendered, {@link MarkdownBody}); {@code body.txt} the layout's with
 *       its tag replaced by the text, or by the text read out of the body's HTML
 *       ({@link PlainTextOf}); {@code template.properties} the layout's.</li>
 *   <li>The result is compiled as any template is ({@link TemplateLoader#compile}); its problems,
 *       if any, are returned instead of it.</li>
 * </ol>
 * Nothing is returned in part: a composition is whole or refused.
 */
public final class OwnMessageComposer {

    /** A subject's longest: the longest line RFC 5322 allows. */
    public static final int MAX_SUBJECT_CHARS = 998;

    private static final Pattern CONTENT = Pattern.compile("\\{\\{\\s*content\\s*}}");

    /** What a composition made. */
    public sealed interface Composition {
        /** The template, and what it compiled to (its required columns, a preview's render). */
        record Composed(TemplateSource source, CompiledTemplate template) implements Composition {
            public Composed {
                Objects.requireNonNull(source, "source");
                Objects.requireNonNull(template, "template");
            }
        }

        /** Every problem, each {@code name/part:line:column: message} or {@code layout NAME: message}. */
        record Refused(List<TemplateProblem> problems) implements Composition {
            public Refused {
                problems = List.copyOf(problems);
                if (problems.isEmpty()) {
                    throw new IllegalArgumentException("a refused composition needs at least one problem");
                }
            }
        }
    }

    private final long maxBodyBytes;

    /** @param maxBodyBytes the largest body, and the largest text, in UTF-8 bytes */
    public OwnMessageComposer(long maxBodyBytes) {
        if (maxBodyBytes < 1) {
            throw new IllegalArgumentException("the body size limit must be positive, got " + maxBodyBytes);
        }
        this.maxBodyBytes = maxBodyBytes;
    }

    /** {@code message} placed into {@code layout} as the template {@code name}, compiled; or every problem. */
    public Composition compose(String name, OwnMessage message, TemplateSource layout) {
        List<TemplateProblem> problems = new ArrayList<>();
        boolean subjectFits = checkSubject(name, message.subject(), problems);
        boolean bodyFits = checkSize(name + "/body", "body", message.body(), problems);
        boolean textFits = message.text().map(text -> checkSize(name + "/text", "text", text, problems)).orElse(true);
        // The message's own tags, compiled before anything is made of them: a problem is then located
        // in what the operator wrote, not in the rendered Markdown or in the layout around it.
        TemplateSource own = TemplateSource.of(name, subjectFits ? message.subject() : "",
                textFits ? message.text().orElse("") : "", bodyFits ? message.body() : "", Optional.empty());
        if (TemplateLoader.compile(own, Optional.empty()) instanceof LoadResult.Invalid invalid) {
            invalid.problems().forEach(problem -> problems.add(inOwnWords(name, problem)));
        }
        String layoutHtml = layout.part(TemplateLoader.HTML).orElse("");
        String layoutText = layout.part(TemplateLoader.TEXT).orElse("");
        checkSlot(layout.name(), TemplateLoader.HTML, layoutHtml, problems);
        checkSlot(layout.name(), TemplateLoader.TEXT, layoutText, problems);
        if (!problems.isEmpty()) {
            return new Composition.Refused(problems);
        }

        String html = message.format() == BodyFormat.MARKDOWN ? MarkdownBody.toHtml(message.body()) : message.body();
        String text = message.text().orElseGet(() -> PlainTextOf.html(html));
        TemplateSource composed = TemplateSource.of(name, message.subject(), fill(layoutText, text), fill(layoutHtml, html),
                layout.part(TemplateLoader.PROPERTIES));
        LoadResult compiled = TemplateLoader.compile(composed, Optional.empty());
        if (compiled instanceof LoadResult.Invalid invalid) {
            return new Composition.Refused(invalid.problems());
        }
        return new Composition.Composed(composed, ((LoadResult.Loaded) compiled).template());
    }

    private static boolean checkSubject(String name, String subject, List<TemplateProblem> problems) {
        String at = name + "/subject";
        if (subject.indexOf('\n') >= 0 || subject.indexOf('\r') >= 0) {
            problems.add(new TemplateProblem(at, 0, 0, "the subject must be a single line"));
            return false;
        }
        if (subject.isBlank()) {
            problems.add(new TemplateProblem(at, 0, 0, "the subject is empty"));
        }
        int chars = subject.codePointCount(0, subject.length());
        if (chars > MAX_SUBJECT_CHARS) {
            problems.add(new TemplateProblem(at, 0, 0,
                    "the subject has " + chars + " characters, more than the limit of " + MAX_SUBJECT_CHARS));
        }
        return true;
    }

    /** Whether {@code value} may be compiled: not over the limit (an empty one compiles, and is reported). */
    private boolean checkSize(String at, String what, String value, List<TemplateProblem> problems) {
        if (value.isBlank()) {
            problems.add(new TemplateProblem(at, 0, 0, "the " + what + " is empty"));
            return true;
        }
        long bytes = value.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > maxBodyBytes) {
            problems.add(new TemplateProblem(at, 0, 0,
                    "the " + what + " takes " + bytes + " bytes, more than the limit of " + maxBodyBytes));
            return false;
        }
        return true;
    }

    /** A problem of the message compiled on its own, named by what the operator wrote. */
    private static TemplateProblem inOwnWords(String name, TemplateProblem problem) {
        Map<String, String> own = Map.of(name + "/" + TemplateLoader.SUBJECT, name + "/subject",
                name + "/" + TemplateLoader.HTML, name + "/body", name + "/" + TemplateLoader.TEXT, name + "/text");
        return new TemplateProblem(own.getOrDefault(problem.file(), problem.file()), problem.line(), problem.column(),
                problem.message());
    }

    private static void checkSlot(String layout, String part, String source, List<TemplateProblem> problems) {
        long count = CONTENT.matcher(source).results().count();
        if (count != 1) {
            problems.add(new TemplateProblem("layout " + layout, 0, 0,
                    part + " must hold {{ content }} once (it holds it " + count + " times)"));
        }
    }

    private static String fill(String layoutPart, String content) {
        return CONTENT.matcher(layoutPart).replaceFirst(Matcher.quoteReplacement(content));
    }
}
