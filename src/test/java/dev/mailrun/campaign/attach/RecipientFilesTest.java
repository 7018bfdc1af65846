package dev.mailrun.campaign.attach;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecipientFilesTest {

    @TempDir
    Path dir;

    private Path root;
    private RecipientFiles files;

    @BeforeEach
    void tree() throws Exception {
        root = Files.createDirectories(dir.resolve("files"));
        Files.createDirectories(root.resolve("tickets"));
        Files.writeString(root.resolve("tickets/ann.pdf"), "%PDF-1.4 Ann");
        Files.writeString(dir.resolve("secret.txt"), "outside");
        files = RecipientFiles.under(root, new AttachmentLimits(1024, 2048));
    }

    @Test
    void a_relative_path_under_the_root_is_read_and_checksummed() throws Exception {
        RecipientFiles.Checked checked = files.check("tickets/ann.pdf", 0);

        assertThat(checked.path()).isEqualTo("tickets/ann.pdf");
        assertThat(checked.size()).isEqualTo(12);
        assertThat(files.read("tickets/ann.pdf", checked.sha256()).filename()).isEqualTo("ann.pdf");
        assertThat(files.read("tickets/ann.pdf", checked.sha256()).contentType()).isEqualTo("application/pdf");
    }

    @Test
    void dot_dot_and_absolute_paths_are_refused_as_written() {
        assertThatThrownBy(() -> files.check("../secret.txt", 0)).hasMessage("'../secret.txt' contains '..'; it must stay under content.recipient-files");
        assertThatThrownBy(() -> files.check("tickets/../../secret.txt", 0)).hasMessageContaining("contains '..'");
        assertThatThrownBy(() -> files.check(dir.resolve("secret.txt").toString(), 0)).hasMessageContaining("is an absolute path");
        assertThatThrownBy(() -> files.check("C:\\secret.txt", 0)).hasMessageContaining("is an absolute path");
        assertThatThrownBy(() -> files.check("tickets/a\nb.pdf", 0)).hasMessage("the path holds the control character U+000A");
    }

    @Test
    void a_symbolic_link_that_leads_out_of_the_root_is_refused_and_one_inside_it_is_followed() throws Exception {
        Files.createSymbolicLink(root.resolve("escape.txt"), dir.resolve("secret.txt"));
        Files.createSymbolicLink(root.resolve("up"), dir);
        Files.createSymbolicLink(root.resolve("same.pdf"), root.resolve("tickets/ann.pdf"));

        assertThatThrownBy(() -> files.check("escape.txt", 0))
                .hasMessage("'escape.txt' leads outside content.recipient-files (through a symbolic link)");
        assertThatThrownBy(() -> files.check("up/secret.txt", 0)).hasMessageContaining("leads outside");
        assertThat(files.check("same.pdf", 0).size()).isEqualTo(12);
    }

    @Test
    void a_missing_a_directory_or_an_oversized_file_is_refused_with_its_reason() throws Exception {
        Files.write(root.resolve("big.bin"), new byte[1500]);

        assertThatThrownBy(() -> files.check("tickets/bob.pdf", 0)).hasMessage("no file tickets/bob.pdf under content.recipient-files");
        assertThatThrownBy(() -> files.check("tickets", 0)).hasMessage("tickets is not a regular file");
        assertThatThrownBy(() -> files.check("big.bin", 0)).hasMessage("big.bin has 1500 bytes, over content.max-attachment-bytes (1024)");
        assertThatThrownBy(() -> files.check("tickets/ann.pdf", 2040)).hasMessageContaining("over content.max-message-bytes (2048)");
    }

    @Test
    void a_file_changed_since_the_import_is_not_sent() throws Exception {
        String sha = files.check("tickets/ann.pdf", 0).sha256();
        Files.writeString(root.resolve("tickets/ann.pdf"), "%PDF-1.4 someone else");

        assertThatThrownBy(() -> files.read("tickets/ann.pdf", sha))
                .hasMessage("attachment tickets/ann.pdf has changed since it was imported (checksum differs)");
    }

    @Test
    void without_a_directory_every_file_is_refused() {
        assertThatThrownBy(() -> RecipientFiles.none(AttachmentLimits.DEFAULTS).check("tickets/ann.pdf", 0))
                .hasMessageContaining("content.recipient-files is not set");
    }
}
