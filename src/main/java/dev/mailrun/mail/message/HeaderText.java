package dev.mailrun.mail.message;

import jakarta.mail.internet.MimeUtility;
import java.util.Base64;

/**
 * Text for a header (a subject, a display name, a List-Id description), written so that a mail
 * client reads back exactly the value given and no line exceeds the 998 octets of RFC 5322.
 *
 * <p>A value goes out as written when it is printable ASCII (TAB allowed), contains no {@code =?},
 * every word (with the white space before it) fits a 78-character line, and no backslash stands
 * before white space. Otherwise the whole value becomes RFC 2047 encoded words:
 * <ul>
 *   <li>non-ASCII text cannot go out raw;</li>
 *   <li>text shaped like an encoded word ({@code =?UTF-8?Q?...?=}, from a merge field or a
 *       campaign setting) would be decoded by the client, which would then show something else
 *       than the sender wrote: the value's own encoding shows the literal text;</li>
 *   <li>a line is folded only at white space, so a long word would make a line of any length;
 *       encoded words are at most 75 characters each and are folded between;</li>
 *   <li>a backslash before a folding point reads as an escaped line break to some parsers
 *       (jakarta.mail's {@code unfold} among them).</li>
 * </ul>
 * The check is one pass over the characters (it runs for every header of every message); the
 * encoding, rarely needed, is written here rather than taken from {@link MimeUtility}, which
 * leaves every ASCII value as it is.
 */
final class HeaderText {

    /** RFC 5322 2.1.1: a line SHOULD be at most 78 characters; a longer word gets encoded. */
    static final int MAX_WORD = 78;
    /** RFC 2047 2: an encoded word is at most 75 characters; 12 of them are "=?UTF-8?Q?" and "?=". */
    private static final int MAX_ENCODED_TEXT = 75 - 12;
    /** Base64 of 45 bytes is 60 characters, the longest multiple of 4 within 63. */
    private static final int MAX_BASE64_BYTES = 45;
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();
    private static final Base64.Encoder BASE64 = Base64.getEncoder();

    private HeaderText() {
    }

    /** The value of an unstructured header such as Subject, encoded when it must be and folded. */
    static String unstructured(String headerName, String value) {
        String text = needsEncoding(value) ? encode(value) : value;
        return fold(headerName.length() + 2, text);
    }

    /** The longest line {@link MimeUtility#fold} aims for. */
    private static final int FOLD_AT = 76;

    /**
     * {@link MimeUtility#fold}'s folding, for a value without line breaks (every value here has been
     * through {@link dev.mailrun.mail.HeaderValues#check}): trailing white space dropped, a CRLF
     * inserted before the last white space that keeps a line within 76 characters (or the first
     * after a longer word). The mail API's version also re-reads the whole value line by line to
     * make embedded line breaks safe (dropping empty lines), which cost more than the folding itself
     * on every message.
     * A value with a line break is left to the mail API.
     */
    static String fold(int used, String s) {
        if (s.indexOf('\r') >= 0 || s.indexOf('\n') >= 0) {
            return MimeUtility.fold(used, s);
        }
        int end = s.length() - 1;
        while (end >= 0 && (s.charAt(end) == ' ' || s.charAt(end) == '\t')) {
            end--;
        }
        if (end != s.length() - 1) {
            s = s.substring(0, end + 1);
        }
        if (used + s.length() <= FOLD_AT) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length() + 8);
        char lastc = 0;
        while (used + s.length() > FOLD_AT) {
            int lastspace = -1;
            for (int i = 0; i < s.length() && (lastspace == -1 || used + i <= FOLD_AT); i++) {
                char c = s.charAt(i);
                if ((c == ' ' || c == '\t') && lastc != ' ' && lastc != '\t') {
                    lastspace = i;
                }
                lastc = c;
            }
            if (lastspace == -1) {
                break; // no white space left: the rest stays on this line
            }
            sb.append(s, 0, lastspace).append("\r\n");
            lastc = s.charAt(lastspace);
            sb.append(lastc);
            s = s.substring(lastspace + 1);
            used = 1;
        }
        String folded = sb.append(s).toString();
        // The mail API drops empty lines; only the first can be one (a value starting with white space).
        return folded.startsWith("\r\n") ? folded.substring(2) : folded;
    }

    /** True when {@code value} cannot go out as written (see the class comment). */
    static boolean needsEncoding(String value) {
        int word = 0;
        char previous = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean space = c == ' ' || c == '\t';
            if ((c < 0x20 && c != '\t') || c > 0x7e
                    || (c == '?' && previous == '=')
                    || (space && previous == '\\')) {
                return true;
            }
            // A fold can go before the first white space after a word: a new line starts there.
            if (space && previous != ' ' && previous != '\t') {
                word = 0;
            }
            if (++word > MAX_WORD) {
                return true;
            }
            previous = c;
        }
        return false;
    }

    /**
     * The whole value as UTF-8 encoded words separated by spaces (a client drops the space between
     * two encoded words). Q encoding for mostly ASCII text, B (base64) once more than a third of
     * the characters are not ASCII, as for the body parts. Q keeps only letters, digits and
     * {@code !*+-/} literal, the set allowed in a display name as well as in a subject. Words end
     * between code points, so each decodes on its own.
     */
    static String encode(String value) {
        int nonAscii = 0;
        for (int i = 0; i < value.length(); i++) {
            if (value.charAt(i) > 0x7e) {
                nonAscii++;
            }
        }
        return nonAscii * 3 > value.length() ? base64(value) : quoted(value);
    }

    private static String quoted(String value) {
        StringBuilder out = new StringBuilder(value.length() * 3 + 16).append("=?UTF-8?Q?");
        byte[] bytes = new byte[4];
        int used = 0;
        for (int i = 0; i < value.length(); ) {
            int cp = value.codePointAt(i);
            i += Character.charCount(cp);
            boolean literal = cp < 0x80 && (Character.isLetterOrDigit(cp) || "!*+-/ ".indexOf(cp) >= 0);
            int n = literal ? 1 : utf8(cp, bytes);
            int length = literal ? 1 : 3 * n;
            if (used + length > MAX_ENCODED_TEXT) {
                out.append("?= =?UTF-8?Q?");
                used = 0;
            }
            if (literal) {
                out.append(cp == ' ' ? '_' : (char) cp);
            } else {
                for (int b = 0; b < n; b++) {
                    out.append('=').append(HEX[(bytes[b] >> 4) & 0xf]).append(HEX[bytes[b] & 0xf]);
                }
            }
            used += length;
        }
        return out.append("?=").toString();
    }

    private static String base64(String value) {
        StringBuilder out = new StringBuilder(value.length() * 3 + 16);
        byte[] chunk = new byte[MAX_BASE64_BYTES];
        byte[] bytes = new byte[4];
        int used = 0;
        for (int i = 0; i < value.length(); ) {
            int cp = value.codePointAt(i);
            i += Character.charCount(cp);
            int n = utf8(cp, bytes);
            if (used + n > MAX_BASE64_BYTES) {
                appendBase64Word(out, chunk, used);
                used = 0;
            }
            System.arraycopy(bytes, 0, chunk, used, n);
            used += n;
        }
        appendBase64Word(out, chunk, used);
        return out.toString();
    }

    private static void appendBase64Word(StringBuilder out, byte[] chunk, int length) {
        if (!out.isEmpty()) {
            out.append(' ');
        }
        out.append("=?UTF-8?B?").append(BASE64.encodeToString(java.util.Arrays.copyOf(chunk, length))).append("?=");
    }

    /** Writes the UTF-8 bytes of {@code cp} into {@code out}; a lone surrogate becomes '?', as in String.getBytes. */
    private static int utf8(int cp, byte[] out) {
        if (cp < 0x80) {
            out[0] = (byte) cp;
            return 1;
        }
        if (cp < 0x800) {
            out[0] = (byte) (0xc0 | (cp >> 6));
            out[1] = (byte) (0x80 | (cp & 0x3f));
            return 2;
        }
        if (Character.isSurrogate((char) cp) && cp < 0x10000) {
            out[0] = '?';
            return 1;
        }
        if (cp < 0x10000) {
            out[0] = (byte) (0xe0 | (cp >> 12));
            out[1] = (byte) (0x80 | ((cp >> 6) & 0x3f));
            out[2] = (byte) (0x80 | (cp & 0x3f));
            return 3;
        }
        out[0] = (byte) (0xf0 | (cp >> 18));
        out[1] = (byte) (0x80 | ((cp >> 12) & 0x3f));
        out[2] = (byte) (0x80 | ((cp >> 6) & 0x3f));
        out[3] = (byte) (0x80 | (cp & 0x3f));
        return 4;
    }
}
