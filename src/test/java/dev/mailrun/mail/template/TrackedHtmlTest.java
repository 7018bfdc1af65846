package dev.mailrun.mail.template;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrackedHtmlTest {

    private static final LinkTracking CLICKS = new LinkTracking(false, true, Set.of("partner.example"));
    private static final LinkTracking BOTH = new LinkTracking(true, true, Set.of());
    private static final LinkTracking OPENS = new LinkTracking(true, false, Set.of());

    @TempDir
    Path dir;

    @Test
    void an_absolute_http_link_is_rewritten_to_its_index_and_its_url_kept() {
        TrackedHtml.Rewritten r = TrackedHtml.rewrite(
                "<p><a class=\"b\" href=\"https://shop.example/a?x=1&amp;y=2\">A</a> <A HREF='http://b.example/'>B</A></p>", CLICKS);

        assertThat(r.source()).isEqualTo(
                "<p><a class=\"b\" href=\"{{ mailrun_click[0] }}\">A</a> <A HREF='{{ mailrun_click[1] }}'>B</A></p>");
        assertThat(r.links()).containsExactly(URI.create("https://shop.example/a?x=1&y=2"), URI.create("http://b.example/"));
    }

    @Test
    void unsubscribe_mailto_tel_anchors_notrack_relative_and_excluded_links_are_left_byte_for_byte() {
        String untouched = "<a href=\"{{ unsubscribe_url }}\">u</a><a href=\"mailto:a@b.example\">m</a>"
                + "<a href=\"tel:+4912345\">t</a><a href=\"#top\">#</a><a data-notrack href=\"https://x.example/\">n</a>"
                + "<a href=\"/relative\">r</a><a href=\"https://www.partner.example/p\">p</a>"
                + "<a href=\"https://{{ host }}/p\">merge</a><a name=\"no-href\">x</a>";

        TrackedHtml.Rewritten r = TrackedHtml.rewrite(untouched, CLICKS);

        assertThat(r.source()).isEqualTo(untouched);
        assertThat(r.links()).isEmpty();
    }

    @Test
    void with_opens_the_image_goes_before_the_end_of_the_body_or_at_the_end() {
        String logo = "<img src=\"https://shop.example/logo.png\" alt=\"Shop\">";
        assertThat(TrackedHtml.rewrite("<html><body>" + logo + "<p>x</p></body></html>", OPENS).source())
                .isEqualTo("<html><body>" + logo + "<p>x</p><img src=\"{{ mailrun_open }}\" width=\"1\" height=\"1\" alt=\"\" "
                        + "style=\"display:block;border:0\"></body></html>");
        assertThat(TrackedHtml.rewrite(logo + "<p>x</p>", OPENS).source())
                .startsWith(logo + "<p>x</p><img src=\"{{ mailrun_open }}\"");
    }

    @Test
    void the_open_image_is_left_out_of_a_short_html_part_without_an_image_of_its_own() {
        String shortHtml = "<html><body><p>" + "x".repeat(3000) + "</p></body></html>";
        TrackedHtml.Rewritten plain = TrackedHtml.rewrite(shortHtml, OPENS);
        assertThat(plain.source()).isEqualTo(shortHtml);
        assertThat(plain.openImage()).isFalse();

        String longHtml = "<html><body><p>" + "x".repeat(TrackedHtml.IMAGE_ONLY_BELOW) + "</p></body></html>";
        assertThat(TrackedHtml.rewrite(longHtml, OPENS).openImage()).isTrue();
        String justLongEnough = "<p>" + "x".repeat(TrackedHtml.IMAGE_ONLY_BELOW - 7) + "</p>";
        assertThat(justLongEnough).hasSize(TrackedHtml.IMAGE_ONLY_BELOW);
        assertThat(TrackedHtml.rewrite(justLongEnough, OPENS).openImage()).isTrue();
        assertThat(TrackedHtml.rewrite(justLongEnough.substring(1), OPENS).openImage()).isFalse();
        assertThat(TrackedHtml.rewrite("<P><IMG SRC=\"https://shop.example/a.png\"></P>", OPENS).openImage())
                .as("an image of its own, in any case").isTrue();
        assertThat(TrackedHtml.rewrite("<p><imgx></p>", OPENS).openImage()).as("not an img tag").isFalse();
    }

    @Test
    void a_tracked_template_renders_each_recipients_urls_and_leaves_everything_else_as_the_untracked_one() {
        String html = "<html><body><img src=\"https://shop.example/logo.png\" alt=\"Shop\"><p>Hi {{ name }}</p>"
                + "<a href=\"https://shop.example/a\">A</a>"
                + "<a href=\"{{ unsubscribe_url }}\">unsubscribe</a></body></html>";
        TemplateFiles.write(dir, "t", "Hello", "text {{ name }}", html);
        TemplateLoader loader = new TemplateLoader(dir);
        CompiledTemplate plain = ((LoadResult.Loaded) loader.load("t")).template();
        CompiledTemplate tracked = ((LoadResult.Loaded) loader.load("t", BOTH)).template();
        Map<String, Object> values = MergeFields.of("a@b.example", "Ann", Map.of(), "https://u.example/u/T", "https://u.example/w/T", "c");

        String plainHtml = ((RenderResult.Rendered) plain.render(new java.util.HashMap<>(values))).content().html();
        List<String> asked = new ArrayList<>();
        List<String> clicks = new java.util.AbstractList<>() {
            @Override
            public String get(int i) {
                asked.add("click" + i);
                return "https://t.example/c/tok" + i;
            }

            @Override
            public int size() {
                return 1;
            }
        };
        RenderResult.Rendered out = (RenderResult.Rendered) tracked.render(
                MergeFields.tracked(new java.util.HashMap<>(values), clicks, "https://t.example/o/open.gif"));

        assertThat(tracked.trackedLinks()).containsExactly(URI.create("https://shop.example/a"));
        assertThat(tracked.openImage()).isTrue();
        assertThat(plain.openImage()).isFalse();
        assertThat(tracked.requiredColumns()).isEqualTo(plain.requiredColumns());
        assertThat(asked).containsExactly("click0");
        assertThat(out.content().html()).isEqualTo(plainHtml
                .replace("https://shop.example/a", "https://t.example/c/tok0")
                .replace("</body>", "<img src=\"https://t.example/o/open.gif\" width=\"1\" height=\"1\" alt=\"\" "
                        + "style=\"display:block;border:0\"></body>"));
        assertThat(out.content().text()).isEqualTo(((RenderResult.Rendered) plain.render(new java.util.HashMap<>(values)))
                .content().text());
    }

    @Test
    void character_references_in_a_link_are_decoded_for_the_redirect() {
        assertThat(TrackedHtml.Entities.decode("a&amp;b&#38;c&#x26;d&unknown;")).isEqualTo("a&b&c&d&unknown;");
    }
}
