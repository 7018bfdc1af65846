package dev.mailrun.mail.feedback;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.interfaces.ECPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.Objects;

/**
 * SendGrid's signed Event Webhook ({@code feedback.sendgrid.public-key}): the verification key SendGrid
 * shows once signing is enabled, an ECDSA P-256 public key as base64 of its DER SubjectPublicKeyInfo.
 */
public record SendGridSettings(ECPublicKey publicKey) {

    /** The order of the P-256 group: tells the curve apart from other 256-bit curves. */
    private static final BigInteger P256_ORDER =
            new BigInteger("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551", 16);

    public SendGridSettings {
        Objects.requireNonNull(publicKey, "publicKey");
    }

    /** Reads the key as SendGrid shows it (PEM armour and white space are tolerated); one-line error otherwise. */
    public static SendGridSettings parse(String base64) {
        String body = base64.replace("-----BEGIN PUBLIC KEY-----", "").replace("-----END PUBLIC KEY-----", "")
                .replaceAll("\\s+", "");
        byte[] der;
        try {
            der = Base64.getDecoder().decode(body);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("feedback.sendgrid.public-key: is not base64 (copy the verification key"
                    + " from SendGrid's Mail Settings, Signed Event Webhook)");
        }
        try {
            if (KeyFactory.getInstance("EC").generatePublic(new X509EncodedKeySpec(der)) instanceof ECPublicKey ec
                    && ec.getParams().getOrder().equals(P256_ORDER)) {
                return new SendGridSettings(ec);
            }
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            // described below
        }
        throw new IllegalArgumentException("feedback.sendgrid.public-key: is not an ECDSA P-256 public key"
                + " (base64 of its DER SubjectPublicKeyInfo, as SendGrid shows it)");
    }
}
