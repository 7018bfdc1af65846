package dev.mailrun.campaign.attach;

import dev.mailrun.campaign.model.Attachment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The recipients' own files: paths named by an import's attachment column, resolved strictly under
 * one directory ({@code content.recipient-files}).
 *
 * <ol>
 *   <li>The value is a relative path: absolute paths, drive letters, {@code ..} segments and
 *       control characters are refused as written, before anything is looked up.</li>
 *   <li>It is resolved against the root's real path and made real itself ({@link Path#toRealPath},
 *       which follows every symbolic link); the result must still lie under the real root, so a link
 *       that leads out of it is refused however it is reached.</li>
 *   <li>The file must be a regular, readable file within {@code content.max-attachment-bytes}.</li>
 * </ol>
 *
 * The import checks each row's file this way and records its checksum; the message is built from
 * the file read again the same way, and only while it has that checksum ({@link #read}).
 */
public final class RecipientFiles {

    /** No directory configured: any file named by an import is refused. */
    public static RecipientFiles none(AttachmentLimits limits) {
        return new RecipientFiles(null, limits);
    }

    private final Path root;
    private final AttachmentLimits limits;

    private RecipientFiles(Path realRoot, AttachmentLimits limits) {
        this.root = realRoot;
        this.limits = limits;
    }

    /** @throws IllegalArgumentException when {@code root} is not an existing directory */
    public static RecipientFiles under(Path root, AttachmentLimits limits) {
        try {
            Path real = root.toRealPath();
            if (!Files.isDirectory(real)) {
                throw new IllegalArgumentException("content.recipient-files " + root + " is not a directory");
            }
            return new RecipientFiles(real, limits);
        } catch (IOException e) {
            throw new IllegalArgumentException("content.recipient-files " + root + " does not exist or cannot be read");
        }
    }

    public boolean configured() {
        return root != null;
    }

    public AttachmentLimits limits() {
        return limits;
    }

    /** A file an import row names, checked: where it is under the root, its name, its checksum. */
    public record Checked(String path, long size, String sha256) {}

    /** What is wrong with the file a row names, in words for the reject line. */
    public static final class FileProblem extends Exception {
        public FileProblem(String message) {
            super(message, null, false, false);
        }
    }

    /** The longest path an import may give (the recipient table's column). */
    static final int MAX_PATH = 1024;

    /**
     * Resolves, reads and checksums the file {@code value} names, which goes into messages beside
     * {@code campaignBytes} of the campaign's own files.
     */
    public Checked check(String value, long campaignBytes) throws FileProblem {
        Path file = resolve(value);
        byte[] content = content(file, value);
        if (content.length + campaignBytes > limits.maxMessageBytes()) {
            throw new FileProblem(value + " has " + content.length + " bytes; with the campaign's files (" + campaignBytes
                    + " bytes) that is over content.max-message-bytes (" + limits.maxMessageBytes() + ")");
        }
        return new Checked(value, content.length, Attachment.of(name(value), "application/octet-stream", content).sha256());
    }

    /**
     * The file at {@code path} as the recipient receives it, resolved as the import resolved it, with
     * its type detected.
     *
     * @throws FileProblem when it cannot be read now, or its checksum is no longer {@code sha256}
     */
    public Attachment read(String path, String sha256) throws FileProblem {
        byte[] content = content(resolve(path), path);
        String name = name(path);
        Attachment a = Attachment.of(name, ContentTypes.detect(name, content), content);
        if (!a.sha256().equals(sha256)) {
            throw new FileProblem("attachment " + path + " has changed since it was imported (checksum differs)");
        }
        return a;
    }

    private Path resolve(String value) throws FileProblem {
        if (root == null) {
            throw new FileProblem("content.recipient-files is not set, so no file can be attached per recipient");
        }
        if (value.length() > MAX_PATH) {
            throw new FileProblem("the path is longer than " + MAX_PATH + " characters");
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0)) {
                throw new FileProblem("the path holds the control character U+" + String.format("%04X", (int) c));
            }
        }
        if (value.startsWith("/") || value.startsWith("\\") || value.matches("^[A-Za-z]:.*")) {
            throw new FileProblem("'" + value + "' is an absolute path; give it relative to content.recipient-files");
        }
        Path relative;
        try {
            relative = Path.of(value);
        } catch (InvalidPathException e) {
            throw new FileProblem("'" + value + "' is not a valid path");
        }
        if (relative.isAbsolute()) {
            throw new FileProblem("'" + value + "' is an absolute path; give it relative to content.recipient-files");
        }
        for (Path part : relative) {
            if (part.toString().equals("..")) {
                throw new FileProblem("'" + value + "' contains '..'; it must stay under content.recipient-files");
            }
        }
        Path real;
        try {
            real = root.resolve(relative).toRealPath();
        } catch (NoSuchFileException e) {
            throw new FileProblem("no file " + value + " under content.recipient-files");
        } catch (IOException e) {
            throw new FileProblem("file " + value + " cannot be reached (" + e.getMessage() + ")");
        }
        if (!real.startsWith(root)) {
            throw new FileProblem("'" + value + "' leads outside content.recipient-files (through a symbolic link)");
        }
        if (!Files.isRegularFile(real)) {
            throw new FileProblem(value + " is not a regular file");
        }
        return real;
    }

    private byte[] content(Path file, String value) throws FileProblem {
        try {
            long size = Files.size(file);
            if (size > limits.maxAttachmentBytes()) {
                throw new FileProblem(value + " has " + size + " bytes, over content.max-attachment-bytes ("
                        + limits.maxAttachmentBytes() + ")");
            }
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new FileProblem(value + " cannot be read (" + e.getClass().getSimpleName() + ")");
        }
    }

    /** The name the recipient sees: the path's last part, as written in the import. */
    private static String name(String path) {
        Path p = Path.of(path).getFileName();
        return p == null ? path : p.toString();
    }

    @Override
    public String toString() {
        return root == null ? "no recipient files" : "recipient files under " + root;
    }
}
