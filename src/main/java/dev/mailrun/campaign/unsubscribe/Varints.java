package dev.mailrun.campaign.unsubscribe;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.OptionalLong;

/** Unsigned LEB128 numbers: ids take as many bytes as they need, which keeps tokens short. */
final class Varints {

    private Varints() {}

    static void write(ByteArrayOutputStream out, long value) {
        if (value < 0) {
            throw new IllegalArgumentException("ids are never negative: " + value);
        }
        long v = value;
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    /** Reads one number; empty when the bytes run out or the number does not fit 63 bits. */
    static OptionalLong read(ByteBuffer in) {
        long result = 0;
        for (int shift = 0; shift < 63; shift += 7) {
            if (!in.hasRemaining()) {
                return OptionalLong.empty();
            }
            byte b = in.get();
            result |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return result < 0 ? OptionalLong.empty() : OptionalLong.of(result);
            }
        }
        return OptionalLong.empty();
    }
}
