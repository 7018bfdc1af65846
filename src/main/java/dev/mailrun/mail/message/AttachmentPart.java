package dev.mailrun.mail.message;

import jakarta.mail.internet.ParameterList;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One attached file as the bytes of its MIME body part (headers, blank line, base64 lines), encoded
 * once and copied as they are into every message that carries it.
 *
 * <p>Why: encoding a 100 KB file to base64 costs more than composing the rest of the message; a
 * campaign attachment is the same for every recipient, so the run encodes it once, as the template's
 * static text is converted once per template.
 *
 * <p>The filename is written per RFC 2231 ({@code filename*0*=UTF-8''…} in sections for non-ASCII
 * names, continuations for long ASCII ones), in both Content-Disposition and, for older clients,
 * the Content-Type's {@code name}. A text file that is UTF-8 says {@code charset=UTF-8}. Base64 lines are 76
 * characters at most (RFC 2045).
 */
public final class AttachmentPart {

    /** RFC 2045: encoded lines are no more than 76 characters. */
    static final int BASE64_LINE = 76;
    private static final byte[] CRLF = {'\r', '\n'};
    private static final Base64.Encoder BASE64 = Base64.getMimeEncoder(BASE64_LINE, CRLF);
    private static final Pattern MEDIA_TYPE = Pattern.compile("[a-z0-9][a-z0-9!#$&^_.+-]{0,62}/[a-z0-9][a-z0-9!#$&^_.+-]{0,62}");

    /** What a Content-ID (and so a {@code cid:} reference) may hold here: a plain file name. */
    public static final Pattern INLINE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");

    private final String filename;
    private final byte[] bytes;
    private final boolean inline;

    private AttachmentPart(String filename, byte[] bytes, boolean inline) {
        this.filename = filename;
        this.bytes = bytes;
        this.inline = inline;
    }

    /**
     * An image shown inside the HTML body ({@code Content-Disposition: inline}), which the HTML
     * references as {@code cid:FILENAME}: its Content-ID is {@code <FILENAME>}.
     *
     * @throws IllegalArgumentException when the name is not a plain file name ({@link #INLINE_NAME})
     */
    public static AttachmentPart inline(String filename, String contentType, byte[] content) {
        if (filename == null || !INLINE_NAME.matcher(filename).matches()) {
            throw new IllegalArgumentException("an inline image's name must be letters, digits, '.', '-' and '_' (it is its "
                    + "Content-ID), got '" + (filename == null ? "" : filename.replaceAll("\\p{Cntrl}", "?")) + "'");
        }
        return encode(filename, contentType, content, true);
    }

    /**
     * A file attached to the message ({@code Content-Disposition: attachment}).
     *
     * @param contentType a media type without parameters, e.g. {@code application/pdf}
     * @throws IllegalArgumentException when the name holds a control character or the type is malformed
     */
    public static AttachmentPart attachment(String filename, String contentType, byte[] content) {
        return encode(filename, contentType, content, false);
    }

    private static AttachmentPart encode(String filename, String contentType, byte[] content, boolean inline) {
        Objects.requireNonNull(content, "content");
        checkName(filename);
        if (!MEDIA_TYPE.matcher(contentType).matches()) {
            throw new IllegalArgumentException("content type '" + contentType + "' is not a media type such as application/pdf");
        }
        byte[] encoded = BASE64.encode(content);
        WireBuffer out = new WireBuffer(encoded.length + 512);
        // Text without a charset is US-ASCII to a reader (RFC 2046 4.1.2): UTF-8 text says so, or
        // its accents arrive garbled; text in another encoding claims none rather than a wrong one.
        String type = contentType.startsWith("text/") && isUtf8(content) ? contentType + "; charset=UTF-8" : contentType;
        out.text("Content-Type: ").text(type).text(parameters("name", filename, ("Content-Type: " + type).length()))
                .crlf();
        out.header("Content-Transfer-Encoding", "base64");
        String disposition = inline ? "inline" : "attachment";
        out.text("Content-Disposition: ").text(disposition)
                .text(parameters("filename", filename, "Content-Disposition: ".length() + disposition.length())).crlf();
        if (inline) {
            out.header("Content-ID", "<" + filename + ">");
        }
        out.crlf();
        out.bytes(encoded);
        if (encoded.length > 0) {
            out.crlf();
        }
        return new AttachmentPart(filename, Arrays.copyOf(out.buffer(), out.size()), inline);
    }

    /**
     * {@code ; name="value"} for an ASCII value, folded and split by the mail API as it needs; for any
     * other, RFC 2231's {@code name*0*=UTF-8''…; name*1*=…}, one section of at most
     * {@value #SECTION} characters per line (the mail API writes such a value on one line of any length).
     */
    private static String parameters(String name, String value, int used) {
        if (value.chars().allMatch(c -> c >= 0x20 && c < 0x7f)) {
            ParameterList list = new ParameterList();
            list.set(name, value);
            return list.toString(used);
        }
        StringBuilder out = new StringBuilder();
        String encoded = "UTF-8''" + percentEncoded(value);
        int section = 0;
        for (int start = 0; start < encoded.length(); section++) {
            int end = Math.min(encoded.length(), start + SECTION);
            // Never cut a %XX apart.
            if (end < encoded.length() && encoded.charAt(end - 1) == '%') {
                end -= 1;
            } else if (end < encoded.length() && encoded.charAt(end - 2) == '%') {
                end -= 2;
            }
            out.append(";\r\n\t").append(name).append('*').append(section).append("*=").append(encoded, start, end);
            start = end;
        }
        return out.toString();
    }

    /** Characters of one section of an encoded parameter. */
    static final int SECTION = 60;

    /** RFC 2231 attribute-chars stay as they are; every other byte of the UTF-8 becomes %XX. */
    private static String percentEncoded(String value) {
        StringBuilder out = new StringBuilder();
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "!#$&+-.^_`|~".indexOf(c) >= 0) {
                out.append((char) c);
            } else {
                out.append('%').append(HEX[c >> 4]).append(HEX[c & 0xf]);
            }
        }
        return out.toString();
    }

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    /** A name that would break the header (or a path) is refused; the caller has checked it before, with its own words. */
    private static void checkName(String filename) {
        if (filename == null || filename.isEmpty() || filename.length() > 255) {
            throw new IllegalArgumentException("an attachment's file name must have 1-255 characters");
        }
        for (int i = 0; i < filename.length(); i++) {
            char c = filename.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '/' || c == '\\') {
                throw new IllegalArgumentException("attachment file name '" + filename.replaceAll("\\p{Cntrl}", "?")
                        + "' holds a control character, '/' or '\\'");
            }
        }
    }

    public String filename() {
        return filename;
    }

    /** Whether it is an inline image (inside multipart/related) rather than an attached file. */
    public boolean inline() {
        return inline;
    }

    /** How many bytes the part adds to a message, besides its delimiter line. */
    public int size() {
        return bytes.length;
    }

    /** Copies the part, as encoded, to the message being written. */
    void writeTo(WireBuffer out) {
        out.bytes(bytes);
    }

    private static boolean isUtf8(byte[] content) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(content));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }
}
