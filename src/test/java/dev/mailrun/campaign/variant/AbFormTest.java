package dev.mailrun.campaign.variant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.campaign.model.AbTest;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.PickBy;
import dev.mailrun.campaign.model.Variant;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The A/B options read as the operator wrote them; each problem one line naming the option. */
class AbFormTest {

    private static AbForm form(List<String> variants, String share, String after, String decide, String pickBy) {
        return new AbForm(variants, Optional.ofNullable(share), Optional.ofNullable(after), Optional.ofNullable(decide),
                Optional.ofNullable(pickBy));
    }

    @Test
    void variants_read_every_key_and_a_name_alone_is_the_campaign_as_created() {
        AbTest test = form(List.of("A", "B:subject=20% off everything", "C:template=newsletter;from-name=Shop;field.offer=20%"),
                "20%", "4h", null, "manual").parse().orElseThrow();
        assertThat(test.variant(0)).isEqualTo(new Variant("A", Optional.empty(), Optional.empty(), Optional.empty(), Map.of()));
        assertThat(test.testSharePercent()).isEqualTo(20);
        assertThat(test.decideAfter()).contains(Duration.ofHours(4));
        assertThat(test.pickBy()).isEqualTo(PickBy.MANUAL);
        assertThat(test.variant(2).fields()).containsExactly(Map.entry("offer", "20%"));
        assertThat(test.variant(2).fromName()).contains("Shop");
        assertThat(form(List.of(), null, null, null, null).parse()).isEmpty();
    }

    @Test
    void a_subject_with_a_semicolon_is_cut_there_and_the_rest_must_be_a_known_key() {
        assertThatThrownBy(() -> form(List.of("A", "B:subject=20% off; everything=no"), "20%", null, null, null).parse())
                .isInstanceOfSatisfying(InvalidFields.class, e -> assertThat(e.problems()).containsExactly(InvalidFields.Problem.about(
                        "variants", "B", "unknown field 'everything' (subject, template, from-name or field.NAME)")))
                .hasMessage("variants: B: unknown field 'everything' (subject, template, from-name or field.NAME)");
    }

    @Test
    void the_test_share_is_cut_so_that_a_small_list_still_tests_every_variant_once() {
        AbTest test = form(List.of("A", "B", "C"), "1%", null, "manual", null).parse().orElseThrow();
        assertThat(test.testSize(1000)).isEqualTo(10);
        assertThat(test.testSize(50)).isEqualTo(3);
        assertThat(test.testSize(2)).isEqualTo(2);
        assertThat(form(List.of("A", "B"), "20%", null, null, null).parse().orElseThrow().testSize(1001)).isEqualTo(201);
    }

    @Test
    void each_bad_option_is_one_line_naming_it() {
        assertThatThrownBy(() -> form(List.of("A", "B"), "20", "4h", "manual", null).parse())
                .hasMessage("decide: manual excludes a time to decide after");
        assertThatThrownBy(() -> form(List.of("A", "B"), "20%", null, "auto", null).parse())
                .hasMessage("decide: must be manual (or give a time to decide after), got 'auto'");
        assertThatThrownBy(() -> form(List.of("A", "B"), "twenty", null, null, null).parse())
                .hasMessage("testShare: must be a percentage such as 20%, got 'twenty'");
        assertThatThrownBy(() -> form(List.of("A", "B:subject=Hi\nBcc: x@y.example"), "20%", null, null, null).parse())
                .isInstanceOfSatisfying(InvalidFields.class, e -> assertThat(e.problems()).containsExactly(InvalidFields.Problem.about(
                        "variants", "B", "subject: contains the control character U+000A (line feed), which is not allowed in a header")));
        assertThatThrownBy(() -> form(List.of("A", "B:field.email=x"), "20%", null, null, null).parse())
                .isInstanceOfSatisfying(InvalidFields.class, e -> assertThat(e.problems()).containsExactly(
                        InvalidFields.Problem.about("variants", "B", "field.email is not a merge field a variant may set")));
        assertThatThrownBy(() -> form(List.of("A", "B:field.web_url=x"), "20%", null, null, null).parse())
                .isInstanceOfSatisfying(InvalidFields.class, e -> assertThat(e.problems()).containsExactly(
                        InvalidFields.Problem.about("variants", "B", "field.web_url is not a merge field a variant may set")));
        assertThatThrownBy(() -> form(List.of("A"), "20%", null, null, null).parse())
                .hasMessage("variants: an A/B test needs at least 2 variants, got 1");
        assertThatThrownBy(() -> form(List.of(), "20%", null, null, null).parse())
                .hasMessage("testShare: needs variants");
        assertThatThrownBy(() -> form(List.of("A", "B"), "20%", null, null, "opens").parse())
                .hasMessage("pickBy: must be clicks, replies or manual, got 'opens'");
        assertThatThrownBy(() -> form(List.of("A", "B"), "20%", "400d", null, null).parse())
                .hasMessageStartingWith("decideAfter: must be above 0 and at most 365d");
    }
}
