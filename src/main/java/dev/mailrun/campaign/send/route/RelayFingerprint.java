package dev.mailrun.campaign.send.route;

import dev.mailrun.mail.smtp.SmtpSettings;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * What a relay's down mark in {@code relay_state} was about: its host, port, TLS mode and user
 * name, hashed (SHA-256, hex). A mark made under another fingerprint is about an address or a login
 * the relay no longer uses, so it does not hold the relay back. The password is left out: no digest
 * of a secret is ever stored.
 */
public final class RelayFingerprint {

    private RelayFingerprint() {}

    public static String of(SmtpSettings smtp) {
        String text = smtp.host().toLowerCase(java.util.Locale.ROOT) + ":" + smtp.port() + "/" + smtp.tls().name() + "/"
                + smtp.username().orElse("");
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java platform", e);
        }
    }
}
