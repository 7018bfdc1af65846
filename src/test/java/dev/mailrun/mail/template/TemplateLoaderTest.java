package dev.mailrun.mail.template;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TemplateLoaderTest {

    @TempDir
    Path dir;

    private List<TemplateProblem> problems(String name) {
        LoadResult result = new TemplateLoader(dir).load(name);
        assertThat(result).isInstanceOf(LoadResult.Invalid.class);
        return ((LoadResult.Invalid) result).problems();
    }

    @Test
    void a_syntax_error_is_reported_with_file_line_and_column() {
        TemplateFiles.write(dir, "t", "Hi", "line one\nline two\n  {% if name %}unclosed\n", "<p>ok</p>");

        List<TemplateProblem> problems = problems("t");

        assertThat(problems).hasSize(1);
        TemplateProblem problem = problems.get(0);
        assertThat(problem.file()).isEqualTo("t/body.txt");
        assertThat(problem.line()).isGreaterThanOrEqualTo(3);
        assertThat(problem.column()).isPositive();
        assertThat(problem.toString()).startsWith("t/body.txt:" + problem.line() + ":");
    }

    @Test
    void an_unclosed_print_tag_points_at_its_line_and_column() {
        TemplateFiles.write(dir, "t", "Hi", "ok", "<p>\n  <b>{{ name </b>\n</p>");

        TemplateProblem problem = problems("t").get(0);

        assertThat(problem.file()).isEqualTo("t/body.html");
        assertThat(problem.line()).isEqualTo(2);
        assertThat(problem.column()).isEqualTo(6);
    }

    @Test
    void every_problem_is_reported_at_once_missing_files_included() {
        TemplateFiles.write(dir, "t", "Hi {{ name", null, null);

        assertThat(problems("t")).extracting(TemplateProblem::file)
                .containsExactlyInAnyOrder("t/body.txt", "t/body.html", "t/subject.txt");
    }

    @Test
    void a_template_that_does_not_exist_reports_its_three_missing_files() {
        assertThat(problems("nope")).hasSize(3).allSatisfy(p -> assertThat(p.message()).startsWith("missing file"));
    }

    @Test
    void a_problem_about_a_whole_file_names_the_file_without_a_position() {
        TemplateFiles.write(dir, "t", null, "ok", "<p>ok</p>");

        assertThat(problems("t")).singleElement().satisfies(p -> {
            assertThat(p.line()).isZero();
            assertThat(p.toString()).isEqualTo("t/subject.txt: " + p.message()).startsWith("t/subject.txt: missing file ");
        });
    }

    @Test
    void a_template_name_that_could_leave_the_templates_directory_is_refused() {
        assertThat(problems("../etc")).singleElement()
                .satisfies(p -> assertThat(p.message()).contains("template names"));
    }

    @Test
    void a_multi_line_subject_is_a_template_problem() {
        TemplateFiles.write(dir, "t", "Hi\nthere\n", "x", "x");

        assertThat(problems("t")).singleElement().satisfies(p -> {
            assertThat(p.file()).isEqualTo("t/subject.txt");
            assertThat(p.line()).isEqualTo(2);
        });
    }

    @Test
    void check_combines_syntax_errors_and_unknown_fields_for_the_cli() {
        TemplateFiles.write(dir, "broken", "Hi", "{{ oops", "x");
        TemplateFiles.write(dir, "fields", "Hi {{ plan }}", "x", "x");
        TemplateLoader loader = new TemplateLoader(dir);

        assertThat(loader.check("broken", Set.of())).singleElement()
                .satisfies(p -> assertThat(p.file()).isEqualTo("broken/body.txt"));
        assertThat(loader.check("fields", MergeFields.available(Set.of()))).singleElement()
                .satisfies(p -> assertThat(p.toString()).isEqualTo("fields/subject.txt:1:7: " + p.message()));
        assertThat(loader.check("fields", MergeFields.available(Set.of("plan")))).isEmpty();
    }

    @Test
    void template_properties_supply_from_and_reply_to_defaults() throws IOException {
        Path t = TemplateFiles.write(dir, "t", "Hi", "x", "x");
        Files.writeString(t.resolve(TemplateLoader.PROPERTIES),
                "# defaults\nfrom = ACME News <news@example.com>\nreply-to=help@example.com\n");

        CompiledTemplate template = TemplateFiles.load(dir, "t");

        assertThat(template.defaults()).isEqualTo(new TemplateDefaults(
                Optional.of("ACME News <news@example.com>"), Optional.of("help@example.com")));
    }

    @Test
    void bad_template_properties_are_reported_by_line() throws IOException {
        Path t = TemplateFiles.write(dir, "t", "Hi", "x", "x");
        Files.writeString(t.resolve(TemplateLoader.PROPERTIES), "from = not an address\ncolour = blue\n");

        assertThat(problems("t")).extracting(TemplateProblem::file, TemplateProblem::line)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("t/template.properties", 1),
                        org.assertj.core.groups.Tuple.tuple("t/template.properties", 2));
    }

    @Test
    void the_shipped_templates_compile_and_need_only_built_in_fields() {
        TemplateLoader loader = new TemplateLoader(Path.of("templates"));
        for (String name : List.of("welcome", "newsletter")) {
            assertThat(loader.check(name, MergeFields.available(Set.of()))).as(name).isEmpty();
            CompiledTemplate template = ((LoadResult.Loaded) loader.load(name)).template();
            RenderResult result = template.render(MergeFields.of("ann@example.com", "Ann <3", Map.of(),
                    "https://example.com/u/abc?x=1&y=2", "https://example.com/w/abc", "Spring"));
            assertThat(result).as(name).isInstanceOf(RenderResult.Rendered.class);
            RenderedContent content = ((RenderResult.Rendered) result).content();
            assertThat(content.html()).as(name).contains("https://example.com/u/abc?x=1&amp;y=2").contains("Ann &lt;3");
            assertThat(content.text()).as(name).contains("https://example.com/u/abc?x=1&y=2");
        }
    }
}
