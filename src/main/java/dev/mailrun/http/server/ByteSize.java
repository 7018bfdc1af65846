package dev.mailrun.http.server;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** A number of bytes as a person reads it in a page or a problem: {@code 1 GiB}, {@code 16 MiB}, {@code 1.5 KiB}, {@code 512 bytes}. */
public final class ByteSize {

    private static final String[] UNITS = {"KiB", "MiB", "GiB", "TiB"};

    private ByteSize() {}

    public static String of(long bytes) {
        if (bytes < 1024) {
            return bytes + (bytes == 1 ? " byte" : " bytes");
        }
        int unit = 0;
        long size = 1024;
        while (unit + 1 < UNITS.length && bytes >= size * 1024) {
            size *= 1024;
            unit++;
        }
        // Limits are usually whole units; anything else is shown to a tenth, never rounded up past the limit.
        BigDecimal value = BigDecimal.valueOf(bytes).divide(BigDecimal.valueOf(size), 1, RoundingMode.DOWN).stripTrailingZeros();
        return value.toPlainString() + " " + UNITS[unit];
    }
}
