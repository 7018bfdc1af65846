package dev.mailrun.campaign.unsubscribe;

import java.io.ByteArrayOutputStream;
import java.util.Locale;
import java.util.Optional;

/**
 * Lower-case RFC 4648 base32 without padding. Used in return paths because some relays change the
 * case of envelope local parts, which would corrupt a case-sensitive (base64) token.
 */
final class Base32 {

    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";

    private Base32() {}

    static String encode(byte[] data) {
        StringBuilder sb = new StringBuilder((data.length * 8 + 4) / 5);
        int buffer = 0;
        int bits = 0;
        for (byte b : data) {
            buffer = (buffer << 8) | (b & 0xFF);
            bits += 8;
            while (bits >= 5) {
                sb.append(ALPHABET.charAt((buffer >>> (bits - 5)) & 0x1F));
                bits -= 5;
            }
        }
        if (bits > 0) {
            sb.append(ALPHABET.charAt((buffer << (5 - bits)) & 0x1F));
        }
        return sb.toString();
    }

    static Optional<byte[]> decode(String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int buffer = 0;
        int bits = 0;
        for (char c : text.toLowerCase(Locale.ROOT).toCharArray()) {
            int v = ALPHABET.indexOf(c);
            if (v < 0) {
                return Optional.empty();
            }
            buffer = (buffer << 5) | v;
            bits += 5;
            if (bits >= 8) {
                out.write((buffer >>> (bits - 8)) & 0xFF);
                bits -= 8;
            }
        }
        return Optional.of(out.toByteArray());
    }
}
