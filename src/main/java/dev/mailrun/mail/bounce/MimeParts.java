package dev.mailrun.mail.bounce;

import jakarta.mail.BodyPart;
import jakarta.mail.MessagingException;
import jakarta.mail.Part;
import jakarta.mail.internet.ContentType;
import jakarta.mail.internet.InternetHeaders;
import jakarta.mail.internet.MimeMultipart;
import jakarta.mail.internet.MimePart;
import jakarta.mail.internet.MimePartDataSource;
import jakarta.mail.internet.ParseException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Walking a message's parts by their declared types. Parts are read as bytes, never through
 * {@code getContent()}, so the outcome does not depend on which content handlers are installed.
 */
final class MimeParts {

    /** Reports are small; a larger part is cut rather than read whole. */
    private static final int MAX_PART_BYTES = 2 * 1024 * 1024;

    private MimeParts() {}

    static String baseType(Part part) throws MessagingException {
        return contentType(part).map(ct -> ct.getBaseType().toLowerCase(Locale.ROOT)).orElse("text/plain");
    }

    static Optional<ContentType> contentType(Part part) throws MessagingException {
        String raw = part.getContentType();
        if (raw == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(new ContentType(raw));
        } catch (ParseException e) {
            return Optional.empty();
        }
    }

    /** The direct children of a multipart part; empty for anything else. */
    static List<BodyPart> children(Part part) throws MessagingException {
        List<BodyPart> children = new ArrayList<>();
        if (part instanceof MimePart mime && baseType(part).startsWith("multipart/")) {
            MimeMultipart multipart = new MimeMultipart(new MimePartDataSource(mime));
            for (int i = 0; i < multipart.getCount(); i++) {
                children.add(multipart.getBodyPart(i));
            }
        }
        return children;
    }

    /** This part and every part below it, depth first. */
    static List<Part> flatten(Part part) throws MessagingException {
        List<Part> all = new ArrayList<>();
        all.add(part);
        for (BodyPart child : children(part)) {
            all.addAll(flatten(child));
        }
        return all;
    }

    static byte[] bytes(Part part) throws MessagingException, IOException {
        try (InputStream in = part.getInputStream()) {
            return in.readNBytes(MAX_PART_BYTES);
        }
    }

    /** The decoded text of a part in its declared charset (UTF-8 when none or an unknown one). */
    static String text(Part part) throws MessagingException, IOException {
        Charset charset = contentType(part).map(ct -> ct.getParameter("charset")).map(MimeParts::charset)
                .orElse(StandardCharsets.UTF_8);
        return new String(bytes(part), charset);
    }

    /** The header section of an embedded message (message/rfc822 or text/rfc822-headers). */
    static InternetHeaders headers(Part part) throws MessagingException, IOException {
        return new InternetHeaders(new ByteArrayInputStream(bytes(part)));
    }

    private static Charset charset(String name) {
        try {
            return Charset.forName(name);
        } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
            return StandardCharsets.UTF_8;
        }
    }
}
