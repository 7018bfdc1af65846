package dev.mailrun.campaign.attach;

import java.net.URLConnection;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

/**
 * The media type of an attached file, from its content and its name.
 *
 * <ol>
 *   <li>A signature at the start of the content (PDF, PNG, JPEG, GIF, WebP, gzip) decides: the
 *       content is what the recipient's program will open, whatever the name says.</li>
 *   <li>A ZIP signature is the container of many formats (docx, xlsx, odt, epub): the name's type
 *       when it names one of those, else {@code application/zip}.</li>
 *   <li>Otherwise the name's type, unless it names one of the formats above whose signature the
 *       content lacks; then, or with no known name, {@code text/plain} for UTF-8 text without NUL
 *       and {@code application/octet-stream} for anything else.</li>
 * </ol>
 */
public final class ContentTypes {

    static final String OCTET_STREAM = "application/octet-stream";

    /** Types the JDK's name table lacks; checked first. */
    private static final Map<String, String> BY_EXTENSION = Map.ofEntries(
            Map.entry("pdf", "application/pdf"),
            Map.entry("csv", "text/csv"),
            Map.entry("ics", "text/calendar"),
            Map.entry("json", "application/json"),
            Map.entry("webp", "image/webp"),
            Map.entry("svg", "image/svg+xml"),
            Map.entry("gz", "application/gzip"),
            Map.entry("docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
            Map.entry("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
            Map.entry("pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation"),
            Map.entry("odt", "application/vnd.oasis.opendocument.text"),
            Map.entry("ods", "application/vnd.oasis.opendocument.spreadsheet"),
            Map.entry("epub", "application/epub+zip"),
            Map.entry("zip", "application/zip"));

    private ContentTypes() {}

    public static String detect(String filename, byte[] content) {
        String signed = bySignature(content);
        String named = byName(filename);
        if ("application/zip".equals(signed)) {
            return named != null && isZipFamily(named) ? named : signed;
        }
        if (signed != null) {
            return signed;
        }
        if (named != null && !hasSignature(named)) {
            return named;
        }
        return isUtf8Text(content) ? "text/plain" : OCTET_STREAM;
    }

    static String bySignature(byte[] b) {
        if (starts(b, "%PDF-")) {
            return "application/pdf";
        }
        if (starts(b, 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n')) {
            return "image/png";
        }
        if (starts(b, 0xff, 0xd8, 0xff)) {
            return "image/jpeg";
        }
        if (starts(b, "GIF87a") || starts(b, "GIF89a")) {
            return "image/gif";
        }
        if (starts(b, "RIFF") && b.length >= 12 && b[8] == 'W' && b[9] == 'E' && b[10] == 'B' && b[11] == 'P') {
            return "image/webp";
        }
        if (starts(b, 0x1f, 0x8b)) {
            return "application/gzip";
        }
        if (starts(b, 'P', 'K', 3, 4) || starts(b, 'P', 'K', 5, 6)) {
            return "application/zip";
        }
        return null;
    }

    private static String byName(String filename) {
        int dot = filename.lastIndexOf('.');
        if (dot < 0) {
            return null;
        }
        String known = BY_EXTENSION.get(filename.substring(dot + 1).toLowerCase(Locale.ROOT));
        if (known != null) {
            return known;
        }
        String guessed = URLConnection.guessContentTypeFromName(filename.toLowerCase(Locale.ROOT));
        return guessed == null || guessed.equals("content/unknown") ? null : guessed;
    }

    private static boolean isZipFamily(String type) {
        return type.contains("openxmlformats") || type.contains("opendocument") || type.endsWith("+zip")
                || type.equals("application/zip") || type.equals("application/java-archive");
    }

    /** Types whose content always starts with a signature: a name claiming one needs the content to agree. */
    private static boolean hasSignature(String type) {
        return type.equals("application/pdf") || type.equals("image/png") || type.equals("image/jpeg")
                || type.equals("image/gif") || type.equals("image/webp") || type.equals("application/gzip") || isZipFamily(type);
    }

    private static boolean isUtf8Text(byte[] content) {
        for (byte b : content) {
            if (b == 0) {
                return false;
            }
        }
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(content));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    private static boolean starts(byte[] b, String ascii) {
        return starts(b, ascii.chars().toArray());
    }

    private static boolean starts(byte[] b, int... signature) {
        if (b.length < signature.length) {
            return false;
        }
        for (int i = 0; i < signature.length; i++) {
            if ((b[i] & 0xff) != signature[i]) {
                return false;
            }
        }
        return true;
    }
}
