package dev.mailrun.campaign.content;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.content.OwnMessageComposer.Composition;
import dev.mailrun.mail.template.RenderResult;
import dev.mailrun.mail.template.RenderedContent;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.mail.template.TemplateProblem;
import dev.mailrun.mail.template.TemplateSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class OwnMessageComposerTest {

    private static final TemplateSource LAYOUT = TemplateSource.of("weekly", "Weekly",
            "WEEKLY\n\n{{content}}\n\nUnsubscribe: {{ unsubscribe_url }}\n",
            "<html><body><h1>Weekly</h1>\n{{ content }}\n<p><a href=\"{{ unsubscribe_url }}\">Unsubscribe</a></p></body></html>\n",
            Optional.of("from = News <news@example.com>\n"));

    private final OwnMessageComposer composer = new OwnMessageComposer(10_000);

    private static OwnMessage markdown(String subject, String body) {
        return new OwnMessage(subject, body, BodyFormat.MARKDOWN, Optional.empty());
    }

    private static Composition.Composed composed(Composition composition) {
        assertThat(composition).isInstanceOf(Composition.Composed.class);
        return (Composition.Composed) composition;
    }

    private static List<String> problems(Composition composition) {
        assertThat(composition).isInstanceOf(Composition.Refused.class);
        return ((Composition.Refused) composition).problems().stream().map(TemplateProblem::toString).toList();
    }

    private static RenderedContent render(Composition.Composed composed, String... pairs) {
        Map<String, Object> values = new HashMap<>();
        values.put("unsubscribe_url", "https://example.com/u/T1");
        for (int i = 0; i < pairs.length; i += 2) {
            values.put(pairs[i], pairs[i + 1]);
        }
        RenderResult result = composed.template().render(values);
        assertThat(result).isInstanceOf(RenderResult.Rendered.class);
        return ((RenderResult.Rendered) result).content();
    }

    @Test
    void a_markdown_body_goes_into_the_layouts_content_in_both_parts() {
        Composition.Composed composed = composed(composer.compose("news-19", markdown("News for {{ first_name | default(\"you\") }}",
                "## Hello {{ first_name | default(\"there\") }}\n\nRead [the notes](https://example.com/notes).\n"), LAYOUT));

        TemplateSource source = composed.source();
        assertThat(source.name()).isEqualTo("news-19");
        assertThat(source.part(TemplateLoader.SUBJECT)).contains("News for {{ first_name | default(\"you\") }}");
        assertThat(source.part(TemplateLoader.HTML)).contains("""
                <html><body><h1>Weekly</h1>
                <h2>Hello {{ first_name | default("there") }}</h2>
                <p>Read <a href="https://example.com/notes">the notes</a>.</p>
                <p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p></body></html>
                """);
        assertThat(source.part(TemplateLoader.TEXT)).contains("""
                WEEKLY

                Hello {{ first_name | default("there") }}

                Read the notes [1].

                Links:
                [1] https://example.com/notes

                Unsubscribe: {{ unsubscribe_url }}
                """);
        assertThat(source.part(TemplateLoader.PROPERTIES)).isEqualTo(LAYOUT.part(TemplateLoader.PROPERTIES));
        assertThat(composed.template().defaults().from()).contains("News <news@example.com>");
    }

    @Test
    void the_composed_template_merges_each_recipients_fields() {
        Composition.Composed composed = composed(composer.compose("news-19", markdown("News for {{ first_name | default(\"you\") }}",
                "Hello **{{ first_name | default(\"there\") }}**, see {{ company }}.\n"), LAYOUT));

        RenderedContent ann = render(composed, "first_name", "Ann & Bob", "company", "ACME");
        assertThat(ann.subject()).isEqualTo("News for Ann & Bob");
        assertThat(ann.html()).contains("<p>Hello <strong>Ann &amp; Bob</strong>, see ACME.</p>")
                .contains("<a href=\"https://example.com/u/T1\">Unsubscribe</a>");
        assertThat(ann.text()).isEqualTo("WEEKLY\n\nHello Ann & Bob, see ACME.\n\nUnsubscribe: https://example.com/u/T1\n");

        RenderedContent nobody = render(composed, "company", "ACME");
        assertThat(nobody.subject()).isEqualTo("News for you");
        assertThat(nobody.html()).contains("Hello <strong>there</strong>");
        assertThat(nobody.text()).contains("Hello there, see ACME.");
        assertThat(composed.template().requiredColumns()).containsExactly("company");
    }

    @Test
    void an_html_body_goes_in_as_written_and_its_text_is_read_out_of_it() {
        String body = "<p>Hi {{ first_name | default('there') }},<br>see <a href=\"{{ unsubscribe_url }}\">this</a></p>";
        Composition.Composed composed = composed(composer.compose("news-20",
                new OwnMessage("Hi", body, BodyFormat.HTML, Optional.empty()), LAYOUT));

        assertThat(composed.source().part(TemplateLoader.HTML).orElseThrow()).contains("<h1>Weekly</h1>\n" + body + "\n<p>");
        assertThat(render(composed).text()).isEqualTo("WEEKLY\n\nHi there,\nsee this [1]\n\nLinks:\n[1] https://example.com/u/T1"
                + "\n\nUnsubscribe: https://example.com/u/T1\n");
    }

    @Test
    void a_text_given_with_the_message_is_the_text_part() {
        Composition.Composed composed = composed(composer.compose("news-21",
                new OwnMessage("Hi", "<p>Rich</p>", BodyFormat.HTML, Optional.of("Plain, {{ first_name | default(\"you\") }}: $5 \\o/")), LAYOUT));

        assertThat(render(composed).text()).isEqualTo("WEEKLY\n\nPlain, you: $5 \\o/\n\nUnsubscribe: https://example.com/u/T1\n");
    }

    @Test
    void a_layout_without_content_or_with_it_twice_is_refused() {
        TemplateSource none = TemplateSource.of("plain", "S", "{{ content }}", "<p>no slot</p>", Optional.empty());
        TemplateSource twice = TemplateSource.of("double", "S", "{{content}}\n{{  content  }}", "{{ content }}", Optional.empty());

        assertThat(problems(composer.compose("n", markdown("Hi", "Body"), none)))
                .containsExactly("layout plain: body.html must hold {{ content }} once (it holds it 0 times)");
        assertThat(problems(composer.compose("n", markdown("Hi", "Body"), twice)))
                .containsExactly("layout double: body.txt must hold {{ content }} once (it holds it 2 times)");
    }

    @Test
    void a_subject_with_a_line_break_or_too_long_is_refused() {
        assertThat(problems(composer.compose("n", markdown("Hi\r\nBcc: x@example.com", "Body"), LAYOUT)))
                .containsExactly("n/subject: the subject must be a single line");
        assertThat(problems(composer.compose("n", markdown("Hi\n", "Body"), LAYOUT)))
                .containsExactly("n/subject: the subject must be a single line");
        assertThat(problems(composer.compose("n", markdown("é".repeat(999), "Body"), LAYOUT)))
                .containsExactly("n/subject: the subject has 999 characters, more than the limit of 998");
        assertThat(composer.compose("n", markdown("é".repeat(998), "Body"), LAYOUT)).isInstanceOf(Composition.Composed.class);
    }

    @Test
    void a_body_or_text_over_the_limit_is_refused_naming_the_limit() {
        OwnMessageComposer small = new OwnMessageComposer(100);
        String body = "x".repeat(50) + "é".repeat(26);   // 102 bytes in UTF-8, 76 characters

        assertThat(problems(small.compose("n", markdown("Hi", body), LAYOUT)))
                .containsExactly("n/body: the body takes 102 bytes, more than the limit of 100");
        assertThat(problems(small.compose("n", new OwnMessage("Hi", "ok", BodyFormat.HTML, Optional.of(body)), LAYOUT)))
                .containsExactly("n/text: the text takes 102 bytes, more than the limit of 100");
        assertThat(small.compose("n", markdown("Hi", "x".repeat(100)), LAYOUT)).isInstanceOf(Composition.Composed.class);
    }

    @Test
    void an_empty_body_is_refused() {
        assertThat(problems(composer.compose("n", markdown("Hi", " \n"), LAYOUT))).containsExactly("n/body: the body is empty");
    }

    @Test
    void a_pebble_error_is_located_in_what_the_operator_wrote() {
        List<String> problems = problems(composer.compose("n", markdown("Hi", "# Title\n\nOne\n\nTwo {{ first_name ) }}\n"), LAYOUT));

        assertThat(problems).hasSize(1);
        assertThat(problems.get(0)).startsWith("n/body:5:5: ");
    }

    @Test
    void every_problem_is_reported_at_once() {
        TemplateSource none = TemplateSource.of("plain", "S", "no slot", "{{ content }}", Optional.empty());

        List<String> problems = problems(composer.compose("n",
                new OwnMessage("Hi\nthere", "<p>{% if x %}</p>", BodyFormat.HTML, Optional.of("{{ y")), none));

        assertThat(problems).hasSize(4);
        assertThat(problems.get(0)).isEqualTo("n/subject: the subject must be a single line");
        assertThat(problems.get(1)).startsWith("n/text:1:");
        assertThat(problems.get(2)).startsWith("n/body:1:");
        assertThat(problems.get(3)).isEqualTo("layout plain: body.txt must hold {{ content }} once (it holds it 0 times)");
    }

    @Test
    void a_name_that_is_not_a_template_name_is_refused() {
        assertThat(problems(composer.compose("no spaces", markdown("Hi", "Body"), LAYOUT)))
                .containsExactly("no spaces: template names are letters, digits, '-' and '_' (at most 64), starting with a letter or digit");
    }
}
