package dev.mailrun.mail.template;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StaticTextTest {

    @TempDir
    Path dir;

    private static String ascii(StaticText.Piece piece) {
        return new String(piece.bytes(), StandardCharsets.US_ASCII);
    }

    @Test
    void a_piece_is_converted_to_crlf_line_breaks_with_its_first_and_last_line() {
        StaticText.Piece piece = StaticText.Piece.of("ab\r\ncd\re\nfgh".toCharArray());

        assertThat(ascii(piece)).isEqualTo("ab\r\ncd\r\ne\r\nfgh");
        assertThat(piece.hasBreak()).isTrue();
        assertThat(piece.firstLine()).isEqualTo(2);
        assertThat(piece.lastLine()).isEqualTo(3);
        assertThat(piece.startsWithLf()).isFalse();
        assertThat(piece.endsWithCr()).isFalse();
    }

    @Test
    void a_piece_without_a_line_break_is_all_first_line_and_its_ends_are_told() {
        StaticText.Piece plain = StaticText.Piece.of("tab\there".toCharArray());
        StaticText.Piece ends = StaticText.Piece.of("\nx\r".toCharArray());

        assertThat(plain.hasBreak()).isFalse();
        assertThat(plain.firstLine()).isEqualTo(8);
        assertThat(ascii(ends)).isEqualTo("\r\nx\r\n");
        assertThat(ends.startsWithLf()).isTrue();
        assertThat(ends.endsWithCr()).isTrue();
        assertThat(ends.firstLine()).isZero();
        assertThat(ends.lastLine()).isZero();
    }

    @Test
    void a_piece_that_cannot_go_7bit_on_its_own_is_left_to_the_character_by_character_way() {
        assertThat(StaticText.Piece.of("café".toCharArray())).isNull();
        assertThat(StaticText.Piece.of("bell \u0007".toCharArray())).isNull();
        assertThat(StaticText.Piece.of("del \u007f".toCharArray())).isNull();
        assertThat(StaticText.Piece.of(("x".repeat(999) + "\n").toCharArray())).isNull();
        // Its last line may still end within 998 characters, depending on what follows it.
        assertThat(StaticText.Piece.of(("\n" + "x".repeat(999)).toCharArray())).isNotNull();
        assertThat(StaticText.Piece.of(("x".repeat(998) + "\n").toCharArray())).isNotNull();
    }

    @Test
    void the_static_text_of_both_bodies_is_converted_when_the_template_compiles() {
        TemplateFiles.write(dir, "t", "Hi", "Hello {{ name }},\nbye\n", "<p>Hello {{ name }}</p>\n<p>é</p>\n");
        CompiledTemplate template = TemplateFiles.load(dir, "t");

        // "Hello " and ",\nbye\n"; "<p>Hello "; the last piece of the HTML is not ASCII.
        assertThat(template.convertedPieces()).isEqualTo(3);
        // Its HTML cannot go out 7bit for anyone: rendered as text without a try.
        assertThat(template.triesSevenBit()).isFalse();
        CompiledTemplate welcome = TemplateFiles.load(Path.of("templates"), "welcome");
        assertThat(welcome.convertedPieces()).isGreaterThan(2);
        assertThat(welcome.triesSevenBit()).isTrue();
    }
}
