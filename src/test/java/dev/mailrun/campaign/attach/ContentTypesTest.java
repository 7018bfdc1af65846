package dev.mailrun.campaign.attach;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ContentTypesTest {

    private static final byte[] PDF = "%PDF-1.7\n...".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0};
    private static final byte[] ZIP = {'P', 'K', 3, 4, 20, 0};

    @Test
    void the_content_signature_wins_over_the_name() {
        assertThat(ContentTypes.detect("programme.pdf", PDF)).isEqualTo("application/pdf");
        assertThat(ContentTypes.detect("programme.txt", PDF)).isEqualTo("application/pdf");
        assertThat(ContentTypes.detect("logo", PNG)).isEqualTo("image/png");
        assertThat(ContentTypes.detect("photo.JPG", new byte[] {(byte) 0xff, (byte) 0xd8, (byte) 0xff, 0})).isEqualTo("image/jpeg");
    }

    @Test
    void a_zip_container_takes_the_type_its_name_gives_when_that_is_a_zip_format() {
        assertThat(ContentTypes.detect("report.docx", ZIP))
                .isEqualTo("application/vnd.openxmlformats-officedocument.wordprocessingml.document");
        assertThat(ContentTypes.detect("book.epub", ZIP)).isEqualTo("application/epub+zip");
        assertThat(ContentTypes.detect("archive.pdf", ZIP)).isEqualTo("application/zip");
    }

    @Test
    void without_a_signature_the_name_decides_unless_it_claims_a_format_the_content_is_not() {
        byte[] text = "Name;Preis\nKäse;4,20\n".getBytes(StandardCharsets.UTF_8);
        assertThat(ContentTypes.detect("prices.csv", text)).isEqualTo("text/csv");
        assertThat(ContentTypes.detect("event.ics", text)).isEqualTo("text/calendar");
        assertThat(ContentTypes.detect("page.html", text)).isEqualTo("text/html");
        assertThat(ContentTypes.detect("fake.pdf", text)).isEqualTo("text/plain");
        assertThat(ContentTypes.detect("fake.png", new byte[] {0, 1, 2})).isEqualTo("application/octet-stream");
        assertThat(ContentTypes.detect("README", text)).isEqualTo("text/plain");
        assertThat(ContentTypes.detect("blob", new byte[] {(byte) 0xc3, 0x28})).isEqualTo("application/octet-stream");
    }
}
