package dev.mailrun.campaign.content;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BodyFormatTest {

    @Test
    void a_format_is_found_by_its_word_in_any_case_and_no_other() {
        assertThat(BodyFormat.named("Markdown")).contains(BodyFormat.MARKDOWN);
        assertThat(BodyFormat.named(" html ")).contains(BodyFormat.HTML);
        assertThat(BodyFormat.named("rtf")).isEmpty();
        assertThat(BodyFormat.named(null)).isEmpty();
        assertThat(BodyFormat.MARKDOWN.word()).isEqualTo("markdown");
    }
}
