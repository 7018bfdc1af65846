package dev.mailrun.campaign.importing;

/** Sizes of text as UTF-8, counted without encoding it. */
final class Utf8 {

    /** No character takes more than three bytes: a pair of surrogates, two characters, takes four. */
    static final int MAX_BYTES_PER_CHAR = 3;

    private Utf8() {
    }

    static long length(CharSequence s) {
        long bytes = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }
}
