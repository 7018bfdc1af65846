package dev.mailrun.mail.template;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A template's text before it is compiled: its subject, text part, HTML part and properties, by the
 * names an author knows them ({@code subject.txt}, {@code body.txt}, {@code body.html},
 * {@code template.properties}). Read from a directory or stored in the database; what compiles is
 * the same either way ({@link TemplateLoader#compile}).
 *
 * @param name  the template's name
 * @param parts part name to its text; a missing required part is a problem of the compilation
 */
public record TemplateSource(String name, Map<String, String> parts) {

    public TemplateSource {
        Objects.requireNonNull(name, "name");
        parts = Map.copyOf(parts);
    }

    public static TemplateSource of(String name, String subject, String text, String html, Optional<String> properties) {
        Map<String, String> parts = new LinkedHashMap<>();
        parts.put(TemplateLoader.SUBJECT, subject);
        parts.put(TemplateLoader.TEXT, text);
        parts.put(TemplateLoader.HTML, html);
        properties.ifPresent(p -> parts.put(TemplateLoader.PROPERTIES, p));
        return new TemplateSource(name, parts);
    }

    public Optional<String> part(String part) {
        return Optional.ofNullable(parts.get(part));
    }

    /** The size of all parts in UTF-8 bytes: what a size limit is checked against. */
    public long bytes() {
        return parts.values().stream().mapToLong(p -> p.getBytes(StandardCharsets.UTF_8).length).sum();
    }

    /**
     * A digest of the parts (SHA-256, hex), the same for the same text whatever its origin: an
     * import stores a new version only when it differs.
     */
    public String digest() {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (String part : TemplateLoader.PARTS) {
                String text = parts.get(part);
                // Length-prefixed, so that moving text from one part to the next changes the digest.
                byte[] bytes = text == null ? new byte[0] : text.getBytes(StandardCharsets.UTF_8);
                sha.update((part + ":" + (text == null ? -1 : bytes.length) + ":").getBytes(StandardCharsets.UTF_8));
                sha.update(bytes);
            }
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
