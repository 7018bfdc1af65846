package dev.mailrun.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {

    @Test
    void a_valid_exposition_parses_with_its_types_labels_and_escapes() {
        var families = PrometheusText.parse("""
                # HELP jobs_total Jobs done, with a \\\\ and a\\nline
                # TYPE jobs_total counter
                jobs_total{queue="a \\"b\\"",kind="x\\ny"} 3.0
                jobs_total{queue="c",kind="x"} 1e3 1700000000000
                # TYPE wait_seconds histogram
                wait_seconds_bucket{le="1.0"} 1
                wait_seconds_bucket{le="+Inf"} 2
                wait_seconds_count 2
                wait_seconds_sum 3.5
                up NaN
                """);
        assertThat(families.keySet()).containsExactly("jobs_total", "wait_seconds", "up");
        assertThat(families.get("jobs_total").help()).isEqualTo("Jobs done, with a \\ and a\nline");
        assertThat(PrometheusText.value(families, "jobs_total", "jobs_total", Map.of("queue", "a \"b\"", "kind", "x\ny")))
                .contains(3.0);
        assertThat(families.get("wait_seconds").type()).isEqualTo("histogram");
    }

    @Test
    void anything_the_format_does_not_allow_is_refused_with_its_line() {
        String[] bad = {
                "1abc 1\n",                                       // bad metric name
                "a{1x=\"v\"} 1\n",                                // bad label name
                "a{x=\"v\\t\"} 1\n",                              // unknown escape
                "a{x=v} 1\n",                                     // unquoted value
                "a 1 2 3\n",                                      // too many fields
                "a one\n",                                        // bad number
                "# TYPE a counter\n# TYPE a gauge\na 1\n",        // second TYPE
                "a 1\n# TYPE a counter\n",                        // TYPE after samples
                "a 1\nb 1\na{x=\"y\"} 2\n",                       // family not in one group
                "a 1\na 2\n",                                     // repeated sample
                "# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_count 1\n",                           // no +Inf
                "# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\nh_count 1\n",   // decreasing
                "# TYPE h histogram\nh_bucket{le=\"+Inf\"} 2\nh_count 1\n",                        // +Inf != count
                "a 1",                                            // no final line feed
        };
        for (String text : bad) {
            assertThatThrownBy(() -> PrometheusText.parse(text)).as(text).isInstanceOf(PrometheusText.ParseException.class)
                    .hasMessageStartingWith("line ");
        }
    }
}
