package dev.mailrun.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** Plays Mailgun's webhooks in tests: {"signature": {timestamp, token, HMAC-SHA256 hex}, "event-data": …}. */
public final class MailgunSigner {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String signingKey;

    public MailgunSigner(String signingKey) {
        this.signingKey = signingKey;
    }

    public String signature(String timestamp, String token) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(signingKey.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal((timestamp + token).getBytes(StandardCharsets.UTF_8)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The body Mailgun posts: the signature of (timestamp, token) and the event data. */
    public String body(Map<String, Object> eventData, long timestamp, String token) {
        return body(eventData, Long.toString(timestamp), token, signature(Long.toString(timestamp), token));
    }

    public static String body(Map<String, Object> eventData, String timestamp, String token, String signature) {
        Map<String, Object> sig = new LinkedHashMap<>();
        sig.put("timestamp", timestamp);
        sig.put("token", token);
        sig.put("signature", signature);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("signature", sig);
        body.put("event-data", eventData);
        try {
            return JSON.writeValueAsString(body);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
