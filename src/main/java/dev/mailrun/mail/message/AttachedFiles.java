package dev.mailrun.mail.message;

import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The files a campaign's messages carry, and the {@code multipart/mixed} layout that carries them:
 * the {@code multipart/alternative} bodies first (what clients show), then each file as encoded
 * once by {@link AttachmentPart}.
 */
final class AttachedFiles {

    private static final String ALTERNATIVE = "multipart/alternative; \r\n\tboundary=\"";

    private final List<AttachmentPart> parts;
    private final int size;

    AttachedFiles(List<AttachmentPart> parts) {
        this.parts = List.copyOf(parts);
        this.size = parts.stream().mapToInt(p -> p.size() + 200).sum();
    }

    boolean isEmpty() {
        return parts.isEmpty();
    }

    /** About how many bytes the files add to a message, delimiters included. */
    int size() {
        return size;
    }

    /**
     * The body of a {@code multipart/mixed} message whose header named {@code boundary}: the
     * alternative part (written by {@code alternativeBodies} between the delimiters of
     * {@code alternative}), then the campaign's files, then the recipient's {@code own} file, then
     * the closing delimiter.
     */
    void writeMixed(WireBuffer out, String boundary, String alternative, Optional<AttachmentPart> own,
                    Consumer<String> alternativeBodies) {
        out.text("--").text(boundary).crlf();
        out.text("Content-Type: ").text(ALTERNATIVE).text(alternative).text("\"").crlf();
        out.crlf();
        alternativeBodies.accept(alternative);
        for (AttachmentPart part : parts) {
            out.text("--").text(boundary).crlf();
            part.writeTo(out);
        }
        if (own.isPresent()) {
            out.text("--").text(boundary).crlf();
            own.get().writeTo(out);
        }
        out.text("--").text(boundary).text("--").crlf();
    }
}
