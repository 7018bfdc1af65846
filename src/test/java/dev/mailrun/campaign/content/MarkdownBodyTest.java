package dev.mailrun.campaign.content;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MarkdownBodyTest {

    @Test
    void headings_lists_links_and_emphasis_become_their_html() {
        String html = MarkdownBody.toHtml("""
                # This week

                Some *new* things and **one** fix:

                - faster imports
                - a [changelog](https://example.com/changes)

                1. read
                2. reply
                """);

        assertThat(html).isEqualTo("""
                <h1>This week</h1>
                <p>Some <em>new</em> things and <strong>one</strong> fix:</p>
                <ul>
                <li>faster imports</li>
                <li>a <a href="https://example.com/changes">changelog</a></li>
                </ul>
                <ol>
                <li>read</li>
                <li>reply</li>
                </ol>""");
    }

    @Test
    void a_table_and_a_bare_address_are_understood() {
        String html = MarkdownBody.toHtml("""
                | Plan | Price |
                |------|------:|
                | Pro  | 10    |

                See https://example.com/pricing today.
                """);

        assertThat(html).contains("<table>", "<th>Plan</th>", "<td align=\"right\">10</td>")
                .contains("<p>See <a href=\"https://example.com/pricing\">https://example.com/pricing</a> today.</p>");
    }

    @Test
    void raw_html_in_the_markdown_is_kept_as_written() {
        assertThat(MarkdownBody.toHtml("A <span style=\"color:red\">red</span> word"))
                .isEqualTo("<p>A <span style=\"color:red\">red</span> word</p>");
    }

    @Test
    void merge_tags_come_through_unchanged_even_with_quotes_stars_and_underscores() {
        String html = MarkdownBody.toHtml("""
                Hi {{ first_name | default("there") }}, your *{{ plan_name }}* plan {{ a_b | default("*x*") }}.

                [Unsubscribe]({{ unsubscribe_url }})
                """);

        assertThat(html).isEqualTo("""
                <p>Hi {{ first_name | default("there") }}, your <em>{{ plan_name }}</em> plan {{ a_b | default("*x*") }}.</p>
                <p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p>""");
    }

    @Test
    void text_that_looks_like_a_placeholder_token_is_left_alone() {
        assertThat(MarkdownBody.toHtml("MAILRUNTAG0Z and {{ x }}")).isEqualTo("<p>MAILRUNTAG0Z and {{ x }}</p>");
    }
}
