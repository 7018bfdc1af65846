package dev.mailrun.testing;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;

/** Plays SendGrid's Signed Event Webhook in tests: a P-256 key pair made here, signatures over timestamp + body. */
public final class SendGridSigner {

    private final KeyPair keys;

    public SendGridSigner() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            keys = generator.generateKeyPair();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The verification key as SendGrid shows it: base64 of the DER SubjectPublicKeyInfo. */
    public String publicKey() {
        return Base64.getEncoder().encodeToString(keys.getPublic().getEncoded());
    }

    /** X-Twilio-Email-Event-Webhook-Signature for this timestamp header and body. */
    public String sign(String timestamp, byte[] body) {
        try {
            Signature signer = Signature.getInstance("SHA256withECDSA");
            signer.initSign(keys.getPrivate());
            signer.update(timestamp.getBytes(StandardCharsets.UTF_8));
            signer.update(body);
            return Base64.getEncoder().encodeToString(signer.sign());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
