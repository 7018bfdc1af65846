package dev.mailrun.mail.message;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class WireBufferTest {

    /** The 7bit bytes as the character-by-character reference makes them; null when not 7bit. */
    private static byte[] viaBuffer(String body) {
        WireBuffer out = new WireBuffer(4);
        out.write('x'); // something before, as the part's headers are, which a refusal must keep
        boolean sevenBit = out.sevenBit(body, WireBuffer.utf8(body));
        assertThat(out.buffer()[0]).isEqualTo((byte) 'x');
        if (!sevenBit) {
            assertThat(out.size()).as("nothing kept of a refused text").isEqualTo(1);
            return null;
        }
        return Arrays.copyOfRange(out.buffer(), 1, out.size());
    }

    @Test
    void converts_and_refuses_exactly_as_the_character_by_character_reference_at_every_offset() {
        SplittableRandom random = new SplittableRandom(7);
        String[] pieces = {"a", "Z", "0", " ", "\t", "\r", "\n", "\r\n", "?", "=", "~", "\u007f", "\u0001", "\u001f",
                "é", "\u0080", "\ud800", "😀", "abcdefgh", "0123456789abcdef", "x".repeat(990)};
        for (int round = 0; round < 20_000; round++) {
            StringBuilder body = new StringBuilder();
            for (int i = random.nextInt(40); i > 0; i--) {
                // Mostly plain text, so the eight-byte steps start at every offset.
                int bound = random.nextInt(5) == 0 ? pieces.length : (random.nextBoolean() ? 9 : 21);
                body.append(pieces[random.nextInt(bound)]);
            }
            String text = body.toString();
            assertThat(viaBuffer(text)).as("%s", text.replace("\r", "<CR>").replace("\n", "<LF>"))
                    .isEqualTo(MimeReferenceComposer.sevenBitBytes(text));
        }
    }

    @Test
    void a_line_of_998_characters_goes_out_and_one_of_999_does_not_wherever_it_stands() {
        for (String around : new String[] {"", "a\n", "abc\r\n", "abcdefg\n"}) {
            assertThat(viaBuffer(around + "x".repeat(998) + "\n" + around)).isNotNull();
            assertThat(viaBuffer(around + "x".repeat(999) + "\n" + around)).isNull();
            assertThat(viaBuffer(around + "x".repeat(999))).isNull();
        }
    }

    @Test
    void a_question_mark_stays_and_a_lone_surrogate_which_utf8_writes_as_one_refuses_the_text() {
        assertThat(viaBuffer("what?????????? really?")).isEqualTo("what?????????? really?".getBytes());
        assertThat(viaBuffer("abcdefgh\ud800abcdefgh")).isNull();
    }
}
