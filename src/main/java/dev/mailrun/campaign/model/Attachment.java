package dev.mailrun.campaign.model;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A file a campaign's messages carry: its name as the recipient sees it, its detected media type
 * and its bytes, with their SHA-256 (hex). The content is not copied: callers hand it over.
 *
 * @param inline an image shown in the HTML body (referenced there as {@code cid:FILENAME}) rather
 *               than an attached file
 */
public record Attachment(String filename, String contentType, byte[] content, String sha256, boolean inline) {

    /** An attached file. */
    public Attachment(String filename, String contentType, byte[] content, String sha256) {
        this(filename, contentType, content, sha256, false);
    }

    public Attachment {
        Objects.requireNonNull(filename, "filename");
        Objects.requireNonNull(contentType, "contentType");
        Objects.requireNonNull(content, "content");
        Objects.requireNonNull(sha256, "sha256");
    }

    /** The file's bytes with their checksum computed here. */
    public static Attachment of(String filename, String contentType, byte[] content) {
        return new Attachment(filename, contentType, content, sha256(content));
    }

    public long size() {
        return content.length;
    }

    /** What status and export show: name, type and size, without the bytes. */
    public Summary summary() {
        return new Summary(filename, contentType, content.length, sha256, inline);
    }

    /** The same file as an inline image. */
    public Attachment asInline() {
        return new Attachment(filename, contentType, content, sha256, true);
    }

    /** An attachment as listed, without its bytes. */
    public record Summary(String filename, String contentType, long size, String sha256, boolean inline) {

        /** {@code programme.pdf (application/pdf, 123456 bytes)}; an inline image says so. */
        @Override
        public String toString() {
            return filename + " (" + contentType + ", " + size + " bytes" + (inline ? ", inline" : "") + ")";
        }
    }

    static String sha256(byte[] content) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
