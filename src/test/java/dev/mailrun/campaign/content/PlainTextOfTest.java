package dev.mailrun.campaign.content;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PlainTextOfTest {

    @Test
    void a_newsletter_reads_as_paragraphs_headings_and_lists_with_its_links_numbered_at_the_end() {
        String text = PlainTextOf.html("""
                <h1>This   week</h1>
                <p>Some <em>new</em> things,
                   and a <a href="https://example.com/changes">changelog</a>.</p>
                <ul><li>faster imports</li><li>see <a href="https://example.com/docs">the docs</a></li></ul>
                <ol start="3"><li>read</li><li>reply<ul><li>soon</li></ul></li></ol>
                <p>Questions? <a href="https://example.com/changes">Ask</a> or write to
                <a href="mailto:help@example.com">help@example.com</a>.</p>
                """);

        assertThat(text).isEqualTo("""
                This week

                Some new things, and a changelog [1].

                - faster imports
                - see the docs [2]

                3. read
                4. reply
                  - soon

                Questions? Ask [1] or write to help@example.com.

                Links:
                [1] https://example.com/changes
                [2] https://example.com/docs""");
    }

    @Test
    void a_link_whose_text_is_its_address_stays_inline_without_a_number() {
        assertThat(PlainTextOf.html("<p>Go to <a href=\"https://example.com/\">example.com</a> now</p>"))
                .isEqualTo("Go to example.com now");
    }

    @Test
    void line_breaks_entities_and_spaces_are_read_as_a_person_sees_them() {
        String text = PlainTextOf.html("<p>Tom&nbsp;&amp;&nbsp;Jerry &eacute;t&eacute;<br>second   line<br><br>after a gap</p>"
                + "<div>a div</div><script>var x = 1;</script><style>p{}</style>");

        assertThat(text).isEqualTo("Tom & Jerry été\nsecond line\n\nafter a gap\n\na div");
    }

    @Test
    void long_lines_are_not_wrapped() {
        String sentence = "word ".repeat(60).strip();
        assertThat(PlainTextOf.html("<p>" + sentence + "</p>")).isEqualTo(sentence);
    }

    @Test
    void tables_quotes_code_and_images_keep_their_shape() {
        String text = PlainTextOf.html("""
                <table><tr><th>Plan</th><th>Price</th></tr><tr><td>Pro</td><td>10</td></tr></table>
                <blockquote><p>Quoted</p><p>twice</p></blockquote>
                <pre>  indented
                    code</pre>
                <p><img src="logo.png" alt="Logo"> below</p>
                <hr>
                <p>end</p>
                """);

        assertThat(text).isEqualTo("""
                Plan | Price
                Pro | 10

                > Quoted
                >
                > twice

                  indented
                    code

                Logo below

                ----

                end""");
    }

    @Test
    void merge_tags_survive_in_text_and_in_link_addresses() {
        String text = PlainTextOf.html("""
                <p>Hi {{ first_name | default("dear  reader") }},   {% if vip %}thanks{% endif %}</p>
                <p><a href="{{ unsubscribe_url }}">Unsubscribe</a> or <a href="https://example.com/?id={{ id }}">view</a></p>
                """);

        assertThat(text).isEqualTo("""
                Hi {{ first_name | default("dear  reader") }}, {% if vip %}thanks{% endif %}

                Unsubscribe [1] or view [2]

                Links:
                [1] {{ unsubscribe_url }}
                [2] https://example.com/?id={{ id }}""");
    }

    @Test
    void a_loose_list_item_starts_on_its_marker_line() {
        assertThat(PlainTextOf.html("<ul><li><p>one</p></li><li><p>two</p></li></ul>")).isEqualTo("- one\n- two");
    }
}
