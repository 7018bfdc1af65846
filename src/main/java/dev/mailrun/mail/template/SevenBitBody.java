package dev.mailrun.mail.template;

import java.util.Objects;

/**
 * One rendered body as it goes out with 7bit transfer encoding: printable ASCII and TAB, every
 * line break written CRLF, no line over 998 characters. The first {@code length} bytes of
 * {@code bytes} are the body; the array is the renderer's own buffer, handed over, not copied.
 */
public record SevenBitBody(byte[] bytes, int length) {

    public SevenBitBody {
        Objects.requireNonNull(bytes, "bytes");
        if (length < 0 || length > bytes.length) {
            throw new IllegalArgumentException("length " + length + " outside a buffer of " + bytes.length);
        }
    }
}
