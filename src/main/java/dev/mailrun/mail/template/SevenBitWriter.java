package dev.mailrun.mail.template;

import java.io.IOException;
import java.io.Writer;
import java.util.Arrays;

/**
 * Renders one template file straight into the bytes of a 7bit body: every line break becomes CRLF,
 * and the output is refused (see {@link #body()}) as soon as a character outside printable ASCII
 * and TAB arrives or a line grows past 998 characters. The template's static pieces arrive
 * converted already ({@link StaticText}); only the merge values are looked at character by
 * character. For one render on one thread.
 *
 * <p>The rules are those of the composer's conversion of a whole rendered text
 * ({@code WireBuffer.sevenBit}): a CR, an LF or a CR LF pair is one line break, and a text that
 * one refuses, the other refuses too ({@code SevenBitRenderTest} compares the two). A refusal
 * stops the render ({@link Refused}); the body is then rendered as text and goes out
 * quoted-printable or base64 as before.
 */
final class SevenBitWriter extends Writer {

    /** RFC 5322: a line is at most 998 characters, excluding CRLF. */
    static final int MAX_LINE = 998;

    private final StaticText statics;
    private byte[] bytes;
    private int size;
    /** Characters since the last line break. */
    private int line;
    /** The last character written was a CR: an LF right after it belongs to the same line break. */
    private boolean afterCr;
    private boolean refused;

    /** Thrown at a refusal, to stop rendering what cannot go out 7bit; without a stack trace, which nobody reads. */
    static final class Refused extends IOException {
        Refused() {
            super("the text cannot go out 7bit");
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }

    SevenBitWriter(StaticText statics, int capacity) {
        this.statics = statics;
        this.bytes = new byte[Math.max(capacity, 16)];
    }

    /** What 7bit text carries as it is: printable ASCII and TAB. */
    static boolean plain(char c) {
        return c >= 0x20 && c <= 0x7e || c == '\t';
    }

    @Override
    public void write(char[] cbuf) throws IOException {
        StaticText.Piece piece = statics.piece(cbuf);
        if (piece == null || afterCr && piece.startsWithLf()) {
            write(cbuf, 0, cbuf.length);
            return;
        }
        if (piece.hasBreak()) {
            if (line + piece.firstLine() > MAX_LINE) {
                throw refuse();
            }
            line = piece.lastLine();
        } else {
            line += piece.firstLine();
        }
        byte[] b = piece.bytes();
        ensure(b.length);
        System.arraycopy(b, 0, bytes, size, b.length);
        size += b.length;
        afterCr = piece.endsWithCr();
    }

    @Override
    public void write(char[] cbuf, int off, int len) throws IOException {
        for (int i = off; i < off + len; i++) {
            put(cbuf[i]);
        }
    }

    @Override
    public void write(String str, int off, int len) throws IOException {
        for (int i = off; i < off + len; i++) {
            put(str.charAt(i));
        }
    }

    @Override
    public void write(int c) throws IOException {
        put((char) c);
    }

    private Refused refuse() {
        refused = true;
        return new Refused();
    }

    /** Whether what was written cannot go out 7bit. */
    boolean refused() {
        return refused || line > MAX_LINE;
    }

    private void put(char c) throws IOException {
        if (afterCr) {
            afterCr = false;
            if (c == '\n') {
                return;
            }
        }
        if (c == '\r' || c == '\n') {
            if (line > MAX_LINE) {
                throw refuse();
            }
            ensure(2);
            bytes[size++] = '\r';
            bytes[size++] = '\n';
            line = 0;
            afterCr = c == '\r';
        } else if (plain(c)) {
            ensure(1);
            bytes[size++] = (byte) c;
            line++;
        } else {
            throw refuse();
        }
    }

    private void ensure(int more) {
        if (more > bytes.length - size) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }
    }

    /** The bytes written so far, copied. */
    byte[] bytesWritten() {
        return Arrays.copyOf(bytes, size);
    }

    /** Characters since the last line break. */
    int lineLength() {
        return line;
    }

    /** The body as it goes out 7bit; null when what was written cannot go so. */
    SevenBitBody body() {
        return refused() ? null : new SevenBitBody(bytes, size);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
}
