package dev.mailrun.events.delivery;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Standard Webhooks signatures: {@code webhook-signature: v1,<base64 of HMAC-SHA256 over
 * "<webhook-id>.<webhook-timestamp>.<body>">}, the key being the secret's bytes after
 * {@code whsec_}. Receivers verify with any of the specification's libraries.
 */
public final class Signer {

    private Signer() {}

    public static String sign(SigningSecret secret, String id, long timestampSeconds, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.key(), "HmacSHA256"));
            mac.update((id + "." + timestampSeconds + ".").getBytes(StandardCharsets.UTF_8));
            return "v1," + Base64.getEncoder().encodeToString(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
