package dev.mailrun.mail.dkim;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.Signature;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A deliberately separate DKIM verifier for tests: RFC 6376 relaxed/relaxed canonicalisation and
 * RSA-SHA256, written from the RFC rather than from the signing code, run on the raw bytes as received.
 */
public final class RelaxedDkimVerifier {

    /** What verification found. */
    public record Result(boolean bodyHashMatches, boolean signatureValid, Map<String, String> tags) {

        public boolean valid() {
            return bodyHashMatches && signatureValid;
        }
    }

    private RelaxedDkimVerifier() {}

    public static Result verify(String rawMessage, PublicKey publicKey) throws Exception {
        String raw = rawMessage.replace("\r\n", "\n").replace("\n", "\r\n");
        int split = raw.indexOf("\r\n\r\n");
        String headerBlock = raw.substring(0, split + 2);
        String body = raw.substring(split + 4);
        List<String> headers = headerFields(headerBlock);

        String signatureField = headers.stream().filter(h -> name(h).equals("dkim-signature")).findFirst()
                .orElseThrow(() -> new AssertionError("no DKIM-Signature header"));
        Map<String, String> tags = tags(value(signatureField));
        if (!"rsa-sha256".equals(tags.get("a")) || !"relaxed/relaxed".equals(tags.get("c"))) {
            throw new AssertionError("unexpected algorithm or canonicalisation: " + tags);
        }

        byte[] bodyHash = MessageDigest.getInstance("SHA-256").digest(relaxedBody(body).getBytes(StandardCharsets.UTF_8));
        boolean bodyOk = Base64.getEncoder().encodeToString(bodyHash).equals(tags.get("bh"));

        StringBuilder signed = new StringBuilder();
        List<String> unused = new ArrayList<>(headers);
        for (String name : tags.get("h").split(":")) {
            String wanted = name.strip().toLowerCase(Locale.ROOT);
            // RFC 6376 5.4.2: take instances from the bottom up; a name with no instance left signs nothing.
            for (int i = unused.size() - 1; i >= 0; i--) {
                if (name(unused.get(i)).equals(wanted)) {
                    signed.append(relaxedHeader(unused.remove(i))).append("\r\n");
                    break;
                }
            }
        }
        String withoutB = signatureField.replaceAll("(\\bb\\s*=)[^;]*", "$1");
        signed.append(relaxedHeader(withoutB));

        Signature rsa = Signature.getInstance("SHA256withRSA");
        rsa.initVerify(publicKey);
        rsa.update(signed.toString().getBytes(StandardCharsets.UTF_8));
        boolean signatureOk = rsa.verify(Base64.getDecoder().decode(tags.get("b")));
        return new Result(bodyOk, signatureOk, tags);
    }

    /** Header fields as they appear, folding kept. */
    private static List<String> headerFields(String block) {
        List<String> fields = new ArrayList<>();
        for (String line : block.split("\r\n")) {
            if (!line.isEmpty() && (line.charAt(0) == ' ' || line.charAt(0) == '\t') && !fields.isEmpty()) {
                fields.set(fields.size() - 1, fields.get(fields.size() - 1) + "\r\n" + line);
            } else if (!line.isEmpty()) {
                fields.add(line);
            }
        }
        return fields;
    }

    private static String name(String field) {
        return field.substring(0, field.indexOf(':')).strip().toLowerCase(Locale.ROOT);
    }

    private static String value(String field) {
        return field.substring(field.indexOf(':') + 1);
    }

    /** RFC 6376 3.4.2. */
    static String relaxedHeader(String field) {
        String value = value(field).replace("\r\n", "").replaceAll("[ \t]+", " ").strip();
        return name(field) + ":" + value;
    }

    /** RFC 6376 3.4.4. */
    static String relaxedBody(String body) {
        String[] lines = body.split("\r\n", -1);
        List<String> out = new ArrayList<>();
        for (String line : lines) {
            out.add(line.replaceAll("[ \t]+", " ").replaceAll(" $", ""));
        }
        while (!out.isEmpty() && out.get(out.size() - 1).isEmpty()) {
            out.remove(out.size() - 1);
        }
        return out.isEmpty() ? "" : String.join("\r\n", out) + "\r\n";
    }

    private static Map<String, String> tags(String value) {
        Map<String, String> tags = new LinkedHashMap<>();
        for (String part : value.split(";")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                tags.put(part.substring(0, eq).strip(), part.substring(eq + 1).replaceAll("\\s+", ""));
            }
        }
        return tags;
    }
}
