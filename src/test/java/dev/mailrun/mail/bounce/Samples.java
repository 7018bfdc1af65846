package dev.mailrun.mail.bounce;

import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Properties;

/** The bounce samples in src/test/resources/bounces, optionally with placeholders replaced. */
public final class Samples {

    private Samples() {}

    public static String text(String name) {
        try (InputStream in = Samples.class.getResourceAsStream("/bounces/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no sample " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static MimeMessage message(String name) {
        return message(name, Map.of());
    }

    /** The sample with each key replaced by its value, e.g. TOKEN_HARD by a real return-path token. */
    public static MimeMessage message(String name, Map<String, String> replacements) {
        String text = text(name);
        for (Map.Entry<String, String> r : replacements.entrySet()) {
            text = text.replace(r.getKey(), r.getValue());
        }
        try {
            return new MimeMessage(Session.getInstance(new Properties()),
                    new ByteArrayInputStream(text.replace("\r\n", "\n").replace("\n", "\r\n").getBytes(StandardCharsets.UTF_8)));
        } catch (jakarta.mail.MessagingException e) {
            throw new IllegalStateException(e);
        }
    }
}
