package dev.mailrun.mail.message;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.mail.template.CompiledTemplate;
import dev.mailrun.mail.template.LoadResult;
import dev.mailrun.mail.template.RenderResult;
import dev.mailrun.mail.template.TemplateLoader;
import jakarta.mail.Session;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recipient rendered straight to 7bit bodies ({@link CompiledTemplate#renderSevenBit}) gets the
 * bytes the composer writes for the same recipient rendered as text, and goes the 7bit way exactly
 * when the text would: the static pieces converted once and the merge values converted per
 * recipient must together follow the rules the composer applies to a whole body.
 */
class SevenBitRenderTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2030-01-02T03:04:05Z"), ZoneOffset.UTC);
    private static final Session SESSION = MessageComposer.newSession("sender.example.com");
    private static final Pattern SEVEN_BIT_PART = Pattern.compile("Content-Transfer-Encoding: 7bit\r\n");

    @TempDir
    Path dir;

    private final CampaignComposer composer = new MessageComposer(CLOCK).forCampaign(
            new Mailbox("news@example.com", "ACME"), Optional.empty(), "c1.lists.example.com", "News");
    private final RecipientFields to = new RecipientFields(Mailbox.of("ann@example.org"), "<c1.r2.x@example.com>",
            "https://example.com/u/1", Optional.empty(), Optional.empty());

    private CompiledTemplate template(String name, String text, String html) throws Exception {
        Path t = dir.resolve(name);
        Files.createDirectories(t);
        Files.writeString(t.resolve(TemplateLoader.SUBJECT), "Hello", StandardCharsets.UTF_8);
        Files.writeString(t.resolve(TemplateLoader.TEXT), text, StandardCharsets.UTF_8);
        Files.writeString(t.resolve(TemplateLoader.HTML), html, StandardCharsets.UTF_8);
        LoadResult result = new TemplateLoader(dir).load(name);
        assertThat(result).as("template %s loads", name).isInstanceOf(LoadResult.Loaded.class);
        return ((LoadResult.Loaded) result).template();
    }

    /** Both ways composed; asserts they agree and returns whether the 7bit way was taken. */
    private boolean assertSameMessage(CompiledTemplate template, Map<String, Object> values) throws Exception {
        RenderResult asText = template.render(values);
        RenderResult asWire = template.renderSevenBit(values);
        if (asText instanceof RenderResult.Rejected rejected) {
            assertThat(asWire).isEqualTo(rejected);
            return false;
        }
        byte[] reference = CampaignComposerTest.bytes(composer.compose(SESSION, to, ((RenderResult.Rendered) asText).content()));
        byte[] lean = asWire instanceof RenderResult.RenderedSevenBit b
                ? CampaignComposerTest.bytes(composer.compose(SESSION, to, b.subject(), b.text(), b.html()))
                : CampaignComposerTest.bytes(composer.compose(SESSION, to, ((RenderResult.Rendered) asWire).content()));
        assertThat(CampaignComposerTest.normalised(lean)).isEqualTo(CampaignComposerTest.normalised(reference));
        long sevenBitParts = SEVEN_BIT_PART.matcher(CampaignComposerTest.normalised(reference)).results().count();
        assertThat(asWire instanceof RenderResult.RenderedSevenBit)
                .as("7bit exactly when both parts of the text's message are 7bit: %s", CampaignComposerTest.normalised(reference))
                .isEqualTo(sevenBitParts == 2);
        return sevenBitParts == 2;
    }

    private static Map<String, Object> values(String a, String b) {
        Map<String, Object> values = new HashMap<>();
        values.put("a", a);
        values.put("b", b);
        return values;
    }

    @Test
    void random_templates_and_values_of_line_breaks_long_lines_and_non_ascii_compose_the_same_bytes() throws Exception {
        SplittableRandom random = new SplittableRandom(2210);
        // No '{' or '%': the static text must stay text. Long runs put lines near and over 998.
        String[] alphabet = {"a", "Z", " ", "\t", "\r", "\n", "\r\n", ".", "=", "?", "<", "&", "\"",
                "x".repeat(330), "y".repeat(499), "é", "春", "\u0001", "\u007f", "😀"};
        int sevenBit = 0;
        int other = 0;
        for (int t = 0; t < 120; t++) {
            String[] files = new String[2];
            for (int f = 0; f < 2; f++) {
                StringBuilder file = new StringBuilder();
                for (int i = random.nextInt(5); i > 0; i--) {
                    file.append(text(random, alphabet, random.nextInt(6)));
                    file.append(random.nextBoolean() ? "{{ a }}" : "{{ b }}");
                }
                file.append(text(random, alphabet, random.nextInt(6)));
                files[f] = file.toString();
            }
            CompiledTemplate template = template("t" + t, files[0], files[1]);
            for (int v = 0; v < 6; v++) {
                String a = text(random, alphabet, random.nextInt(5));
                boolean ok = assertSameMessage(template, values(a, text(random, alphabet, random.nextInt(5))));
                if (ok) {
                    sevenBit++;
                } else {
                    other++;
                }
            }
        }
        // Both ways came up, often: the comparison covered the copy of converted pieces and the fallback.
        assertThat(sevenBit).isGreaterThan(100);
        assertThat(other).isGreaterThan(100);
    }

    /**
     * One piece of text: a third of them drawn from the whole alphabet (long runs, controls,
     * non-ASCII), the rest from its printable ASCII and line breaks, so both ways come up often.
     */
    private static String text(SplittableRandom random, String[] alphabet, int pieces) {
        int from = random.nextInt(3) == 0 ? alphabet.length : 13;
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < pieces; i++) {
            s.append(alphabet[random.nextInt(from)]);
        }
        return s.toString();
    }

    @Test
    void a_line_of_static_text_and_a_merge_value_goes_7bit_at_998_characters_and_not_at_999() throws Exception {
        CompiledTemplate template = template("long", "head\n" + "x".repeat(990) + "{{ a }}" + "y".repeat(4) + "\ntail\n",
                "<p>{{ b }}</p>\n");
        assertThat(assertSameMessage(template, values("1234", "b"))).isTrue();
        assertThat(assertSameMessage(template, values("12345", "b"))).isFalse();
    }

    @Test
    void a_cr_ending_static_text_and_an_lf_starting_merge_value_are_one_line_break() throws Exception {
        CompiledTemplate template = template("crlf", "one\r{{ b }}two\r\n{{ a }}\n", "<p>\r{{ b }}</p>\r");
        assertThat(assertSameMessage(template, values("\r", "\nx"))).isTrue();
        assertThat(assertSameMessage(template, values("", "\n\n"))).isTrue();
        assertThat(assertSameMessage(template, values("\n", "\r"))).isTrue();
    }

    @Test
    void a_merge_value_outside_ascii_sends_the_recipient_quoted_printable_as_before() throws Exception {
        CompiledTemplate template = template("name", "Hello {{ a }}\n", "<p>Hello {{ a }}</p>\n");
        assertThat(template.renderSevenBit(values("Ann", ""))).isInstanceOf(RenderResult.RenderedSevenBit.class);
        assertThat(template.renderSevenBit(values("Jörg", ""))).isInstanceOf(RenderResult.Rendered.class);
        assertThat(assertSameMessage(template, values("Jörg", ""))).isFalse();
    }

    @Test
    void a_value_refused_inside_a_loop_or_a_macro_sends_the_recipient_as_text_not_rejected() throws Exception {
        CompiledTemplate template = template("nested",
                "{% macro shout(x) %}<{{ x }}>{% endmacro %}{% for i in [1, 2] %}{{ a }} {{ i }}\n{% endfor %}{{ shout(b) }}\n",
                "<p>{% if a %}{{ shout(a) }}{% endif %}</p>\n{% macro shout(x) %}<b>{{ x }}</b>{% endmacro %}");
        assertThat(assertSameMessage(template, values("Ann", "Bob"))).isTrue();
        assertThat(template.renderSevenBit(values("Jörg", "Bob"))).isInstanceOf(RenderResult.Rendered.class);
        assertThat(assertSameMessage(template, values("Jörg", "Bob"))).isFalse();
        assertThat(assertSameMessage(template, values("Ann", "Zoë"))).isFalse();
    }

    @Test
    void a_template_error_after_a_refused_value_still_rejects_the_recipient() throws Exception {
        CompiledTemplate template = template("late-error", "Hi {{ a }}\n{% if b %}{{ missing }}{% endif %}\n",
                "<p>{{ a }}</p>\n");
        RenderResult result = template.renderSevenBit(values("Jörg", "yes"));
        assertThat(result).isInstanceOf(RenderResult.Rejected.class);
        assertThat(((RenderResult.Rejected) result).reason()).contains("missing");
        assertThat(result).isEqualTo(template.render(values("Jörg", "yes")));
    }

    @Test
    void a_template_whose_own_text_is_not_ascii_goes_as_text_for_every_recipient() throws Exception {
        CompiledTemplate template = template("german", "Grüße, {{ a }}\n", "<p>Hallo {{ a }}</p>\n");
        assertThat(template.renderSevenBit(values("Ann", ""))).isInstanceOf(RenderResult.Rendered.class);
        assertThat(assertSameMessage(template, values("Ann", ""))).isFalse();
    }

    @Test
    void the_welcome_template_goes_7bit_with_the_same_bytes() throws Exception {
        LoadResult result = new TemplateLoader(Path.of("templates")).load("welcome");
        CompiledTemplate welcome = ((LoadResult.Loaded) result).template();
        Map<String, Object> values = dev.mailrun.mail.template.MergeFields.of("ann@example.org", "Ann",
                Map.of(), "https://example.com/u/1?t=abc", "https://example.com/w/1", "Spring news");
        assertThat(assertSameMessage(welcome, values)).isTrue();
    }
}
