package dev.mailrun.mail.message;

import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The bytes of one message as they are written: header lines, and body text either as it is (7bit)
 * or through an encoder. Not synchronized, unlike {@link java.io.ByteArrayOutputStream}: one
 * message is written by one thread.
 */
final class WireBuffer extends OutputStream {

    /** RFC 5322: a line is at most 998 characters, excluding CRLF. */
    static final int MAX_LINE = 998;

    private byte[] buffer;
    private int size;

    WireBuffer(int capacity) {
        buffer = new byte[Math.max(capacity, 16)];
    }

    @Override
    public void write(int b) {
        ensure(1);
        buffer[size++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
        ensure(len);
        System.arraycopy(b, off, buffer, size, len);
        size += len;
    }

    void bytes(byte[] b) {
        write(b, 0, b.length);
    }

    /**
     * Header text, one byte per character as the mail API writes headers when UTF-8 headers are off:
     * a character above U+00FF becomes '?' (the composer's header values are ASCII by then).
     */
    WireBuffer text(String s) {
        int n = s.length();
        ensure(n);
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            buffer[size++] = c <= 0xff ? (byte) c : (byte) '?';
        }
        return this;
    }

    WireBuffer crlf() {
        ensure(2);
        buffer[size++] = '\r';
        buffer[size++] = '\n';
        return this;
    }

    /** A header line: name, colon, space, the value (already folded), CRLF. */
    WireBuffer header(String name, String value) {
        return text(name).text(": ").text(value).crlf();
    }

    /**
     * Appends {@code body} as it goes out with 7bit transfer encoding, every line break as CRLF,
     * and returns true; appends nothing and returns false when it cannot go out 7bit (a character
     * outside printable ASCII other than TAB, or a line over 998 characters).
     *
     * <p>{@code utf8} is the body's UTF-8 encoding: when it has exactly as many bytes as the body
     * has characters, every character is ASCII (or a lone surrogate, which UTF-8 writes as '?';
     * those are told apart here by comparing the '?' bytes with the text).
     */
    boolean sevenBit(String body, byte[] utf8) {
        int n = utf8.length;
        if (n != body.length()) {
            return false;
        }
        int start = size;
        // Bare LF, as templates have it, becomes CRLF: at most one more byte per line break.
        ensure(n + n / 16 + 2);
        // Eight bytes at a time while they are plain printable ASCII (most of a line), one table
        // look-up per byte otherwise; each line is then copied in one piece. A loop with per-byte
        // branches and writes was a quarter of the message's CPU.
        int lineStart = 0;
        int i = 0;
        while (i < n) {
            if (i + Long.BYTES <= n && plain((long) LONGS.get(utf8, i))) {
                i += Long.BYTES;
                continue;
            }
            byte kind = KIND[utf8[i] & 0xff];
            if (kind == QUESTION_MARK && body.charAt(i) != '?' || kind == NOT_7BIT) {
                return undo(start);
            }
            if (kind == LINE_BREAK) {
                if (i - lineStart > MAX_LINE) {
                    return undo(start);
                }
                appendLine(utf8, lineStart, i - lineStart);
                if (utf8[i] == '\r' && i + 1 < n && utf8[i + 1] == '\n') {
                    i++;
                }
                lineStart = i + 1;
            }
            i++;
        }
        if (n - lineStart > MAX_LINE) {
            return undo(start);
        }
        write(utf8, lineStart, n - lineStart);
        return true;
    }

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;

    /**
     * True when none of the eight bytes needs a look: each is in 0x20..0x7e and is not '?'. The
     * tests are the word-at-a-time "has a byte less than n" and "has a zero byte" tricks, exact
     * for bytes below 0x80; a byte at or above it fails the first test.
     */
    private static boolean plain(long word) {
        long question = word ^ (ONES * '?');
        long delete = word ^ (ONES * 0x7f);
        return ((word & HIGH_BITS)
                | ((word - ONES * 0x20) & ~word & HIGH_BITS)
                | ((question - ONES) & ~question & HIGH_BITS)
                | ((delete - ONES) & ~delete & HIGH_BITS)) == 0;
    }

    private void appendLine(byte[] text, int from, int length) {
        ensure(length + 2);
        System.arraycopy(text, from, buffer, size, length);
        size += length;
        buffer[size++] = '\r';
        buffer[size++] = '\n';
    }

    private boolean undo(int start) {
        size = start;
        return false;
    }

    private static final byte PLAIN = 0;
    private static final byte LINE_BREAK = 1;
    private static final byte NOT_7BIT = 2;
    /** '?' is also what UTF-8 writes for a lone surrogate: compared with the text to tell them apart. */
    private static final byte QUESTION_MARK = 3;
    /** What each byte is in 7bit text: printable ASCII and TAB as they are, CR and LF line breaks. */
    private static final byte[] KIND = new byte[256];

    static {
        java.util.Arrays.fill(KIND, NOT_7BIT);
        for (int c = 0x20; c <= 0x7e; c++) {
            KIND[c] = PLAIN;
        }
        KIND['\t'] = PLAIN;
        KIND['\r'] = LINE_BREAK;
        KIND['\n'] = LINE_BREAK;
        KIND['?'] = QUESTION_MARK;
    }

    /** Drops everything written after the first {@code length} bytes. */
    void truncate(int length) {
        if (length < 0 || length > size) {
            throw new IllegalArgumentException("cannot truncate " + size + " bytes to " + length);
        }
        size = length;
    }

    /** UTF-8 of {@code body}; a lone surrogate becomes '?', as in the mail API's text handler. */
    static byte[] utf8(String body) {
        return body.getBytes(StandardCharsets.UTF_8);
    }

    private void ensure(int more) {
        if (more > buffer.length - size) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, size + more));
        }
    }

    /** The buffer itself, of which the first {@link #size()} bytes are the message; not copied. */
    byte[] buffer() {
        return buffer;
    }

    int size() {
        return size;
    }
}
