package dev.mailrun.mail.message;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.mail.internet.MimeUtility;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class HeaderTextTest {

    @Test
    void folds_exactly_as_the_mail_api_does_values_of_words_spaces_and_tabs_of_every_length() {
        SplittableRandom random = new SplittableRandom(76);
        String[] pieces = {"a", "word", "x".repeat(40), "y".repeat(90), " ", "  ", "\t", ",", "<https://example.com/u/c1r2>",
                "=?UTF-8?Q?Gr=C3=BC=C3=9Fe?="};
        for (int round = 0; round < 5_000; round++) {
            StringBuilder value = new StringBuilder();
            for (int i = random.nextInt(30); i > 0; i--) {
                value.append(pieces[random.nextInt(pieces.length)]);
            }
            int used = random.nextInt(30);
            String s = value.toString();
            assertThat(HeaderText.fold(used, s)).as("used %d, '%s'", used, s).isEqualTo(MimeUtility.fold(used, s));
        }
    }

    @Test
    void a_value_with_a_line_break_is_left_to_the_mail_api() {
        String s = "one two\r\nthree " + "x".repeat(80);
        assertThat(HeaderText.fold(10, s)).isEqualTo(MimeUtility.fold(10, s));
    }
}
