package dev.mailrun.mail.message;

import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * The files a campaign's messages carry, and the layout that carries them, each file as encoded
 * once by {@link AttachmentPart}:
 *
 * <pre>
 * multipart/mixed                    when there is any attached file (the campaign's or the recipient's)
 * ├── multipart/related              when there is any inline image
 * │   ├── multipart/alternative      text/plain, text/html: what clients show
 * │   └── inline images              Content-ID, referenced from the HTML as cid:
 * └── attached files                 the campaign's in order, then the recipient's own
 * </pre>
 *
 * A level without parts is left out, so a message without files is the alternative part alone.
 */
final class AttachedFiles {

    static final String ALTERNATIVE = "multipart/alternative; \r\n\tboundary=\"";
    static final String MIXED = "multipart/mixed; \r\n\tboundary=\"";
    static final String RELATED = "multipart/related; type=\"multipart/alternative\"; \r\n\tboundary=\"";

    private final List<AttachmentPart> attached;
    private final List<AttachmentPart> inline;
    private final int size;

    AttachedFiles(List<AttachmentPart> parts) {
        this.attached = parts.stream().filter(p -> !p.inline()).toList();
        this.inline = parts.stream().filter(AttachmentPart::inline).toList();
        this.size = parts.stream().mapToInt(p -> p.size() + 200).sum();
    }

    /** About how many bytes the files add to a message, delimiters included. */
    int size() {
        return size;
    }

    private boolean mixed(boolean own) {
        return own || !attached.isEmpty();
    }

    /** The start of the message's Content-Type, up to its boundary's value. */
    String topType(boolean own) {
        return mixed(own) ? MIXED : inline.isEmpty() ? ALTERNATIVE : RELATED;
    }

    /** How many boundaries a message needs: one per multipart level. */
    int boundaries(boolean own) {
        return 1 + (mixed(own) ? 1 : 0) + (inline.isEmpty() ? 0 : 1);
    }

    /**
     * The message's body after its headers. {@code boundary.apply(0)} is the one the header names;
     * {@code alternativeBodies} writes the two bodies and the closing delimiter of the boundary it is given.
     */
    void writeBody(WireBuffer out, IntFunction<String> boundary, Optional<AttachmentPart> own,
                   Consumer<String> alternativeBodies) {
        String top = boundary.apply(0);
        if (!mixed(own.isPresent())) {
            if (inline.isEmpty()) {
                alternativeBodies.accept(top);
            } else {
                writeRelated(out, top, boundary.apply(1), alternativeBodies);
            }
            return;
        }
        out.text("--").text(top).crlf();
        if (inline.isEmpty()) {
            String alternative = boundary.apply(1);
            out.text("Content-Type: ").text(ALTERNATIVE).text(alternative).text("\"").crlf().crlf();
            alternativeBodies.accept(alternative);
        } else {
            String related = boundary.apply(1);
            out.text("Content-Type: ").text(RELATED).text(related).text("\"").crlf().crlf();
            writeRelated(out, related, boundary.apply(2), alternativeBodies);
        }
        for (AttachmentPart part : attached) {
            out.text("--").text(top).crlf();
            part.writeTo(out);
        }
        if (own.isPresent()) {
            out.text("--").text(top).crlf();
            own.get().writeTo(out);
        }
        out.text("--").text(top).text("--").crlf();
    }

    /** The bodies, then the inline images, between the delimiters of {@code related}. */
    private void writeRelated(WireBuffer out, String related, String alternative, Consumer<String> alternativeBodies) {
        out.text("--").text(related).crlf();
        out.text("Content-Type: ").text(ALTERNATIVE).text(alternative).text("\"").crlf().crlf();
        alternativeBodies.accept(alternative);
        for (AttachmentPart part : inline) {
            out.text("--").text(related).crlf();
            part.writeTo(out);
        }
        out.text("--").text(related).text("--").crlf();
    }
}
