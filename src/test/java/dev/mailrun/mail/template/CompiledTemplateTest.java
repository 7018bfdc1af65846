package dev.mailrun.mail.template;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompiledTemplateTest {

    @TempDir
    Path dir;

    private static Map<String, Object> values(String... pairs) {
        Map<String, Object> values = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            values.put(pairs[i], pairs[i + 1]);
        }
        return values;
    }

    private static RenderedContent rendered(RenderResult result) {
        assertThat(result).isInstanceOf(RenderResult.Rendered.class);
        return ((RenderResult.Rendered) result).content();
    }

    @Test
    void html_part_escapes_values_while_text_part_and_subject_keep_them_raw() {
        TemplateFiles.write(dir, "t", "Hi {{ name }}\n", "Hello {{ name }}\n", "<p>Hello {{ name }}</p>\n");
        CompiledTemplate template = TemplateFiles.load(dir, "t");

        RenderedContent content = rendered(template.render(values("name", "Tom & <Jerry> \"x\"")));

        assertThat(content.subject()).isEqualTo("Hi Tom & <Jerry> \"x\"");
        assertThat(content.text()).isEqualTo("Hello Tom & <Jerry> \"x\"\n");
        assertThat(content.html()).isEqualTo("<p>Hello Tom &amp; &lt;Jerry&gt; &quot;x&quot;</p>\n");
    }

    @Test
    void a_missing_field_rejects_the_recipient_instead_of_rendering_an_empty_string() {
        TemplateFiles.write(dir, "t", "Hi", "Hello {{ company }}", "<p>Hi</p>");
        CompiledTemplate template = TemplateFiles.load(dir, "t");

        RenderResult result = template.render(values("name", "Ann"));

        assertThat(result).isInstanceOf(RenderResult.Rejected.class);
        assertThat(((RenderResult.Rejected) result).reason()).contains("body.txt").contains("company");
    }

    @Test
    void an_explicit_default_fills_a_missing_field() {
        TemplateFiles.write(dir, "t", "Hi", "From {{ company | default(\"ACME\") }}", "<p>{{ company | default(\"A&B\") }}</p>");
        CompiledTemplate template = TemplateFiles.load(dir, "t");

        RenderedContent content = rendered(template.render(values()));

        assertThat(content.text()).isEqualTo("From ACME");
        assertThat(content.html()).isEqualTo("<p>A&amp;B</p>");
        assertThat(rendered(template.render(values("company", "Initech"))).text()).isEqualTo("From Initech");
    }

    @Test
    void a_line_break_rendered_into_the_subject_rejects_the_recipient_naming_the_header() {
        TemplateFiles.write(dir, "t", "Hi {{ name }}\n", "x", "x");
        CompiledTemplate template = TemplateFiles.load(dir, "t");

        for (String evil : List.of("Ann\r\nBcc: victim@example.com", "Ann\nX: y", "Ann\rX", "Ann\u0000", "Ann\u2028")) {
            RenderResult result = template.render(values("name", evil));
            assertThat(result).as(evil).isInstanceOf(RenderResult.Rejected.class);
            assertThat(((RenderResult.Rejected) result).reason()).startsWith("Subject:");
        }
    }

    @Test
    void a_tab_rendered_into_the_subject_is_kept() {
        TemplateFiles.write(dir, "t", "Hi {{ name }}\n", "x", "x");

        assertThat(rendered(TemplateFiles.load(dir, "t").render(values("name", "Ann\tLee"))).subject())
                .isEqualTo("Hi Ann\tLee");
    }

    @Test
    void the_final_newline_of_subject_txt_is_not_part_of_the_subject() {
        TemplateFiles.write(dir, "t", "Welcome, {{ name }}!\r\n\n", "x", "x");

        assertThat(rendered(TemplateFiles.load(dir, "t").render(values("name", "Ann"))).subject())
                .isEqualTo("Welcome, Ann!");
    }

    @Test
    void required_fields_include_nested_expressions_filters_conditions_and_function_arguments() {
        TemplateFiles.write(dir, "t",
                "{{ subject_prefix | upper }} news",
                """
                {% if vip and (score > threshold) %}VIP{% endif %}
                {{ (first ~ " " ~ last) | title }}
                {{ greeting | replace({"X": replacement}) }}
                {{ user.address.city }}
                {{ items[index] }}
                {{ flag ? yes_text : no_text }}
                {{ "%s-%s" | format(a, b) }}
                {{ max(low, high) }}
                """,
                "<p>{{ -negated }} {{ [list_item] | first }}</p>");

        assertThat(TemplateFiles.load(dir, "t").requiredFields()).containsExactlyInAnyOrder(
                "subject_prefix", "vip", "score", "threshold", "first", "last", "greeting", "replacement",
                "user", "items", "index", "flag", "yes_text", "no_text", "a", "b", "low", "high",
                "negated", "list_item");
    }

    @Test
    void loop_variables_set_variables_and_defaulted_fields_are_not_required() {
        TemplateFiles.write(dir, "t", "Hi",
                """
                {% for article in articles %}{{ article.title }} {{ loop.index }}{% else %}{{ nothing_text }}{% endfor %}
                {% set total = count * 2 %}{{ total }}
                {{ company | default("ACME") }} {{ profile.city | default(region) }}
                {% if nickname is defined %}{{ nickname }}{% endif %}
                {% macro card(title, body="") %}{{ title }}{{ body }}{% endmacro %}{{ card(headline) }}
                """,
                "<p>{{ name }}</p>");

        assertThat(TemplateFiles.load(dir, "t").requiredFields()).containsExactlyInAnyOrder(
                "articles", "nothing_text", "count", "region", "headline", "name");
        assertThat(TemplateFiles.load(dir, "t").usedFields()).contains("company", "profile", "nickname");
    }

    @Test
    void a_loop_variable_does_not_leak_out_of_its_loop() {
        TemplateFiles.write(dir, "t", "Hi", "{% for item in items %}{{ item }}{% endfor %}{{ item }}", "x");

        assertThat(TemplateFiles.load(dir, "t").requiredFields()).containsExactlyInAnyOrder("items", "item");
    }

    @Test
    void check_reports_each_unknown_field_with_file_line_and_column() {
        TemplateFiles.write(dir, "t", "Hi {{ name }}",
                "Hello {{ name }},\nyour plan: {{ plan }}\n",
                "<p>\n  <b>{{ plan | upper }}</b> {{ company | default(\"x\") }} {{ email }}\n</p>");
        CompiledTemplate template = TemplateFiles.load(dir, "t");

        List<TemplateProblem> problems = template.check(MergeFields.available(Set.of()));

        assertThat(problems).extracting(TemplateProblem::file, TemplateProblem::line, TemplateProblem::column)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("t/body.txt", 2, 15),
                        org.assertj.core.groups.Tuple.tuple("t/body.html", 2, 9));
        assertThat(problems.get(0).message()).contains("'plan'");
        assertThat(template.check(MergeFields.available(Set.of("plan")))).isEmpty();
    }

    @Test
    void web_url_is_filled_in_by_mailrun_and_never_a_column_recipients_must_have() {
        TemplateFiles.write(dir, "t", "Hi", "Online: {{ web_url }}\n{{ unsubscribe_url }}\n",
                "<a href=\"{{ web_url }}\">View in your browser</a>");
        CompiledTemplate template = TemplateFiles.load(dir, "t");

        assertThat(template.check(MergeFields.available(Set.of()))).isEmpty();
        assertThat(template.requiredColumns()).isEmpty();
        assertThat(template.usesWebUrl()).isTrue();
        TemplateFiles.write(dir, "u", "Hi", "{{ unsubscribe_url }}", "<p>{{ unsubscribe_url }}</p>");
        assertThat(TemplateFiles.load(dir, "u").usesWebUrl()).isFalse();
    }
}
