package dev.mailrun.campaign.attach;

import dev.mailrun.campaign.model.Attachment;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.mail.message.AttachmentPart;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads the files given to {@code campaign create --attach} into {@link Attachment}s: each checked
 * against the limits before it is read whole, its type detected ({@link ContentTypes}). Every refusal
 * is an {@link InvalidFields} naming the field ({@code attachments} or {@code inline}), the file and
 * what is wrong with it.
 */
public final class AttachmentFiles {

    private final AttachmentLimits limits;

    public AttachmentFiles(AttachmentLimits limits) {
        this.limits = limits;
    }

    /** The files, read in order; the recipient sees each under its own name (the path's last part). */
    public List<Attachment> read(List<Path> files) {
        return read(files, List.of());
    }

    /**
     * The attached {@code files} and the {@code inline} images ({@code campaign create --inline}),
     * each referenced from the HTML as {@code cid:NAME}, NAME its file name: an image type, and a name
     * of letters, digits, '.', '-' and '_'. Both count toward the limits together.
     */
    public List<Attachment> read(List<Path> files, List<Path> inline) {
        List<Attachment> all = new ArrayList<>();
        for (Path file : files) {
            all.add(read(file, "attachments"));
        }
        for (Path file : inline) {
            Attachment image = read(file, "inline");
            if (!AttachmentPart.INLINE_NAME.matcher(image.filename()).matches()) {
                throw InvalidFields.about("inline", file.toString(), "the name is its Content-ID (cid:NAME), so it may hold only "
                        + "letters, digits, '.', '-' and '_'");
            }
            if (!image.contentType().startsWith("image/")) {
                throw InvalidFields.about("inline", file.toString(), "is " + image.contentType() + ", not an image");
            }
            all.add(image.asInline());
        }
        return check(all);
    }

    /** Files given as bytes under a name (the HTTP API's uploads), checked as {@link #read(List)} checks files. */
    public List<Attachment> of(List<Named> files) {
        List<Attachment> all = new ArrayList<>();
        for (Named f : files) {
            all.add(attachment("attachments", f.filename(), f.content()));
        }
        return check(all);
    }

    /** A file's name and bytes. */
    public record Named(String filename, byte[] content) {}

    /** @param field the form's field the file came in: {@code attachments} or {@code inline} */
    private Attachment read(Path file, String field) {
        if (!Files.isRegularFile(file)) {
            throw InvalidFields.about(field, file.toString(), Files.exists(file) ? "not a regular file" : "no such file");
        }
        try {
            long size = Files.size(file);
            if (size > limits.maxAttachmentBytes()) {
                throw tooLarge(field, file.toString(), size);
            }
            return attachment(field, file.getFileName().toString(), Files.readAllBytes(file));
        } catch (IOException e) {
            throw InvalidFields.about(field, file.toString(), "cannot be read (" + e.getMessage() + ")");
        }
    }

    private Attachment attachment(String field, String filename, byte[] content) {
        String problem = nameProblem(filename);
        if (problem != null) {
            throw InvalidFields.about(field, shown(filename), problem);
        }
        if (content.length > limits.maxAttachmentBytes()) {
            throw tooLarge(field, filename, content.length);
        }
        return Attachment.of(filename, ContentTypes.detect(filename, content), content);
    }

    private List<Attachment> check(List<Attachment> all) {
        long total = 0;
        Set<String> names = new HashSet<>();
        for (Attachment a : all) {
            total += a.size();
            if (total > limits.maxMessageBytes()) {
                throw InvalidFields.about(a.inline() ? "inline" : "attachments", a.filename(), "the files together reach " + total
                        + " bytes, over content.max-message-bytes (" + limits.maxMessageBytes() + ")");
            }
            if (!names.add(a.filename().toLowerCase(Locale.ROOT))) {
                throw InvalidFields.about(a.inline() ? "inline" : "attachments", a.filename(),
                        "a file of that name is attached already");
            }
        }
        return all;
    }

    private InvalidFields tooLarge(String field, String file, long size) {
        return InvalidFields.about(field, file, size + " bytes, over content.max-attachment-bytes ("
                + limits.maxAttachmentBytes() + ")");
    }

    /** Why a name cannot go into a header as a file name; null when it can. */
    static String nameProblem(String filename) {
        if (filename.isEmpty() || filename.length() > 255) {
            return "the file name must have 1-255 characters";
        }
        for (int i = 0; i < filename.length(); i++) {
            char c = filename.charAt(i);
            if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0)) {
                return "the file name holds the control character U+" + String.format("%04X", (int) c);
            }
            if (c == '/' || c == '\\') {
                return "the file name holds '" + c + "'";
            }
        }
        return null;
    }

    private static String shown(String filename) {
        return filename.replaceAll("\\p{Cntrl}", "?");
    }
}
