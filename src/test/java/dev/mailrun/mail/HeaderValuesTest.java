package dev.mailrun.mail;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HeaderValuesTest {

    @ParameterizedTest
    @ValueSource(strings = {"Hello\tWorld", "\tleading tab", "ACME News", "Grüße 春 😀", "=?UTF-8?Q?x?=", "non\u00a0breaking", ""})
    void tab_and_any_printable_text_may_go_into_a_header(String value) {
        assertThat(HeaderValues.check("Subject", value)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(chars = {'\r', '\n', '\0', '\u0007', '\u000b', '\u000c', '\u001f', '\u007f', '\u0080', '\u0085', '\u009f', '\u2028', '\u2029'})
    void line_breaks_other_controls_and_unicode_separators_are_refused_in_one_line_naming_the_header_and_the_character(char c) {
        String code = String.format("U+%04X", (int) c);

        assertThat(HeaderValues.check("Subject", "Hello" + c + "Bcc: victim@example.net")).hasValueSatisfying(reason -> {
            assertThat(reason).startsWith("Subject: contains ").contains(code).endsWith(", which is not allowed in a header");
            assertThat(reason.lines()).hasSize(1);
            assertThat(reason.chars()).noneMatch(ch -> ch < 0x20 || (ch >= 0x7f && ch <= 0x9f) || ch == 0x2028 || ch == 0x2029);
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"--subject", "From display name"})
    void the_label_is_the_callers_so_an_option_can_be_named(String label) {
        assertThat(HeaderValues.check(label, "a\nb"))
                .contains(label + ": contains the control character U+000A (line feed), which is not allowed in a header");
    }
}
