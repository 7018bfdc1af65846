package dev.mailrun.campaign.audience.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.SubscriptionStatus;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link FilterParser}: the grammar read into the tree, and every bad part named by its path. */
class FilterParserTest {

    private static List<String> problems(String json) {
        InvalidFields e = catchThrowableOfType(() -> FilterParser.parse(json), InvalidFields.class);
        assertThat(e).as("refused: %s", json).isNotNull();
        return e.problems().stream().map(p -> p.field() + ": " + p.reason()).toList();
    }

    @Test
    void the_issues_example_reads_into_the_tree() {
        FilterParser.Parsed p = FilterParser.parse("""
                {"and":[{"attr":"plan","eq":"pro"},{"list":"customers","status":"confirmed"},
                        {"not":{"attr":"country","in":["DE","AT"]}},{"engaged":{"kind":"click","days":90}},
                        {"bounced":{"kind":"hard"}}]}""");
        assertThat(p.filter()).isEqualTo(new SegmentFilter.All(List.of(
                new SegmentFilter.Attr("plan", new SegmentFilter.Equals("pro")),
                new SegmentFilter.OnList("customers", Set.of(SubscriptionStatus.CONFIRMED)),
                new SegmentFilter.Not(new SegmentFilter.Attr("country", new SegmentFilter.In(List.of("DE", "AT")))),
                new SegmentFilter.Engaged(Set.of("click"), Optional.empty(), Optional.of(90)),
                new SegmentFilter.Bounced(Set.of("hard"), Optional.empty()))));
        assertThat(p.lists()).containsExactly(java.util.Map.entry("filter.and[1].list", "customers"));
        assertThat(p.json()).doesNotContain(" ").startsWith("{\"and\":[");
    }

    @Test
    void numbers_keep_their_exact_value() {
        assertThat(FilterParser.parse("{\"attr\":\"x\",\"range\":{\"gte\":0.1,\"lt\":1e3}}").filter()).isEqualTo(
                new SegmentFilter.Attr("x", new SegmentFilter.Range(Optional.empty(), Optional.of(new BigDecimal("0.1")),
                        Optional.of(new BigDecimal("1000")), Optional.empty())));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "{\"and\":[{\"attr\":\"a\",\"eq\":1},{\"attr\":\"b\",\"eq\":1,\"flag\":true}]}|filter.and[1].flag: unknown key (expected attr, eq, ne, contains, in, range, exists)",
        "{\"and\":[{\"attr\":\"a\",\"eq\":1},{\"attr\":\"b\",\"eq\":1},{\"attr\":\"\",\"eq\":1}]}|filter.and[2].attr: a name must not be blank",
        "{\"attr\":\"" + "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" + "\",\"eq\":1}|filter.attr: a name is at most 64 characters",
        "{\"attr\":\"a\\tb\",\"eq\":1}|filter.attr: a name must not contain control characters",
        "{\"attr\":7,\"eq\":1}|filter.attr: must be an attribute's name (text)",
        "{\"attr\":\"a\",\"eq\":{}}|filter.eq: must be text, a number or true/false",
        "{\"attr\":\"a\",\"eq\":null}|filter.eq: must be text, a number or true/false",
        "{\"attr\":\"a\"}|filter: needs one of eq, ne, contains, in, range, exists",
        "{\"attr\":\"a\",\"eq\":1,\"contains\":\"x\"}|filter.contains: one test per attribute: this one has 'eq' already",
        "{\"attr\":\"a\",\"contains\":\"\"}|filter.contains: must not be empty",
        "{\"attr\":\"a\",\"contains\":5}|filter.contains: must be text",
        "{\"attr\":\"a\",\"in\":[]}|filter.in: must be a list of one or more values",
        "{\"attr\":\"a\",\"in\":[\"x\",[1]]}|filter.in[1]: must be text, a number or true/false",
        "{\"attr\":\"a\",\"range\":{}}|filter.range: must be an object with one or more of gt, gte, lt, lte",
        "{\"attr\":\"a\",\"range\":{\"gte\":\"5\"}}|filter.range.gte: must be a number",
        "{\"attr\":\"a\",\"range\":{\"gte\":1,\"gt\":2}}|filter.range: takes one lower bound (gt or gte) and one upper bound (lt or lte)",
        "{\"attr\":\"a\",\"range\":{\"from\":1}}|filter.range.from: unknown key (expected gt, gte, lt, lte)",
        "{\"attr\":\"a\",\"range\":{\"lt\":1e40}}|filter.range.lt: must have at most 35 digits before the point and 30 after",
        "{\"attr\":\"a\",\"exists\":\"yes\"}|filter.exists: must be true or false",
        "{\"list\":\"news\",\"status\":\"gone\"}|filter.status: must be unconfirmed, confirmed, unsubscribed or any",
        "{\"list\":3}|filter.list: must be text",
        "{\"status\":\"active\"}|filter.status: must be enabled or blocklisted",
        "{\"engaged\":{\"kind\":\"view\"}}|filter.engaged.kind: must be open, click or any",
        "{\"engaged\":{\"days\":5}}|filter.engaged.kind: must be open, click or any",
        "{\"engaged\":{\"kind\":\"open\",\"days\":0}}|filter.engaged.days: must be a whole number of days from 1 to 3650",
        "{\"engaged\":{\"kind\":\"open\",\"days\":1.5}}|filter.engaged.days: must be a whole number of days from 1 to 3650",
        "{\"engaged\":{\"kind\":\"open\",\"campaign\":\"7\"}}|filter.engaged.campaign: must be a campaign's id (a whole number from 1)",
        "{\"engaged\":{\"kind\":\"open\",\"since\":5}}|filter.engaged.since: unknown key (expected kind, campaign, days)",
        "{\"bounced\":{\"kind\":\"any\",\"days\":4000}}|filter.bounced.days: must be a whole number of days from 1 to 3650",
        "{\"complained\":{\"ever\":true}}|filter.complained.ever: unknown key (expected days)",
        "{\"or\":{}}|filter.or: must be a list of one or more conditions",
        "{\"and\":[]}|filter.and: must be a list of one or more conditions",
        "{\"not\":[{\"status\":\"enabled\"}]}|filter.not: must be an object with one of and, or, not, attr, list, status, engaged, bounced, complained",
        "{\"and\":[5]}|filter.and[0]: must be an object with one of and, or, not, attr, list, status, engaged, bounced, complained",
        "{}|filter: must have one of and, or, not, attr, list, status, engaged, bounced, complained",
        "{\"sql\":\"1=1\"}|filter: must have one of and, or, not, attr, list, status, engaged, bounced, complained",
        "{\"attr\":\"a\",\"eq\":1,\"list\":\"x\"}|filter.list: one condition per object: this one has 'attr' already",
        "[1]|filter: must be an object with one of and, or, not, attr, list, status, engaged, bounced, complained",
    })
    void each_bad_part_is_named_by_its_path(String json, String problem) {
        assertThat(problems(json)).containsExactly(problem);
    }

    @Test
    void every_problem_is_reported_at_once() {
        assertThat(problems("{\"and\":[{\"attr\":\"\",\"eq\":1},{\"status\":\"x\"},{\"engaged\":{\"kind\":\"open\",\"days\":-1}}]}"))
                .containsExactly("filter.and[0].attr: a name must not be blank", "filter.and[1].status: must be enabled or blocklisted",
                        "filter.and[2].engaged.days: must be a whole number of days from 1 to 3650");
    }

    @Test
    void text_that_is_not_json_or_has_a_key_twice_is_refused_as_a_whole() {
        assertThat(problems("{\"attr\":")).singleElement().asString().startsWith("filter: is not JSON: ");
        assertThat(problems("{\"attr\":\"a\",\"attr\":\"b\",\"eq\":1}")).singleElement().asString()
                .startsWith("filter: is not JSON: Duplicate field 'attr'");
        assertThat(problems("{\"status\":\"enabled\"} {}")).singleElement().asString().startsWith("filter: is not JSON: ");
        assertThat(problems(" ")).containsExactly("filter: must not be blank");
    }

    @Test
    void nesting_deeper_than_eight_levels_is_refused_at_the_ninth() {
        String eight = "{\"status\":\"enabled\"}";
        for (int i = 1; i < 8; i++) {
            eight = "{\"not\":" + eight + "}";
        }
        FilterParser.parse(eight);
        assertThat(problems("{\"not\":" + eight + "}")).containsExactly("filter.not.not.not.not.not.not.not.not: nests deeper than 8 levels");
    }

    @Test
    void more_than_a_hundred_conditions_are_refused_once() {
        StringBuilder b = new StringBuilder("{\"or\":[");
        for (int i = 0; i < 100; i++) {
            b.append(i == 0 ? "" : ",").append("{\"status\":\"enabled\"}");
        }
        assertThat(problems(b + "]}")).containsExactly("filter: has more than 100 conditions");
        FilterParser.parse(b.substring(0, b.lastIndexOf(",")) + "]}");
    }

    @Test
    void texts_over_500_characters_and_in_lists_over_1000_values_are_refused() {
        String long501 = "x".repeat(501);
        assertThat(problems("{\"attr\":\"a\",\"eq\":\"" + long501 + "\"}")).containsExactly("filter.eq: is longer than 500 characters");
        assertThat(problems("{\"attr\":\"a\",\"in\":[\"ok\",\"" + long501 + "\"]}")).containsExactly("filter.in[1]: is longer than 500 characters");
        String values = String.join(",", java.util.Collections.nCopies(1001, "1"));
        assertThat(problems("{\"attr\":\"a\",\"in\":[" + values + "]}")).containsExactly("filter.in: has 1001 values, more than the 1000 allowed");
        FilterParser.parse("{\"attr\":\"a\",\"in\":[" + values.substring(2) + "]}");
    }

    @Test
    void a_condition_that_is_not_an_object_says_what_it_should_be() {
        assertThat(problems("{\"bounced\":\"hard\"}")).containsExactly("filter.bounced: must be an object: {\"kind\": hard|soft|any, \"days\": N}");
    }

    @Test
    void ne_reads_as_not_equal() {
        assertThat(FilterParser.parse("{\"attr\":\"plan\",\"ne\":true}").filter()).isEqualTo(
                new SegmentFilter.Not(new SegmentFilter.Attr("plan", new SegmentFilter.Equals(true))));
    }
}
