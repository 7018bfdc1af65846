package dev.mailrun.mail.template;

import java.io.Writer;
import java.util.Arrays;

/**
 * A writer into a plain char array, for one render on one thread.
 *
 * <p>Why not {@code StringBuilderWriter}: a {@link StringBuilder} holding ASCII text stores bytes,
 * so each of the template's static pieces, written as a char array, was narrowed char by char on
 * the way in (a tenth of the message's CPU); here they are copied in bulk, and the text is
 * narrowed once, in {@link #toString}. Not {@code StringWriter} or {@code CharArrayWriter}: both
 * lock on every one of the many small writes.
 */
final class TextBuffer extends Writer {

    private char[] chars;
    private int size;

    TextBuffer(int capacity) {
        chars = new char[Math.max(capacity, 16)];
    }

    @Override
    public void write(char[] cbuf, int off, int len) {
        ensure(len);
        System.arraycopy(cbuf, off, chars, size, len);
        size += len;
    }

    @Override
    public void write(String str, int off, int len) {
        ensure(len);
        str.getChars(off, off + len, chars, size);
        size += len;
    }

    @Override
    public void write(int c) {
        ensure(1);
        chars[size++] = (char) c;
    }

    private void ensure(int more) {
        if (more > chars.length - size) {
            chars = Arrays.copyOf(chars, Math.max(chars.length * 2, size + more));
        }
    }

    @Override
    public String toString() {
        return new String(chars, 0, size);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
}
