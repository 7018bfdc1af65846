package dev.mailrun.mail.dkim;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.interfaces.RSAPrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;

/** Reads an unencrypted RSA private key in PKCS#8 form, PEM ("BEGIN PRIVATE KEY") or DER. */
final class DkimKeys {

    /** Verifiers must not accept signatures from smaller keys (RFC 8301). */
    static final int MIN_BITS = 1024;

    private static final String PEM_BEGIN = "-----BEGIN PRIVATE KEY-----";
    private static final String PEM_END = "-----END PRIVATE KEY-----";

    private DkimKeys() {}

    static RSAPrivateKey load(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new DkimKeyException("dkim.private-key-file " + file + " does not exist");
        } catch (IOException e) {
            throw new DkimKeyException("dkim.private-key-file " + file + " cannot be read: " + e.getMessage(), e);
        }
        String text = new String(bytes, StandardCharsets.US_ASCII);
        if (text.contains("-----BEGIN RSA PRIVATE KEY-----")) {
            throw new DkimKeyException("dkim.private-key-file " + file + " is a PKCS#1 key; convert it to PKCS#8: "
                    + "openssl pkcs8 -topk8 -nocrypt -in " + file.getFileName() + " -out dkim-private.pem");
        }
        if (text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----")) {
            throw new DkimKeyException("dkim.private-key-file " + file + " is encrypted; give an unencrypted PKCS#8 key"
                    + " readable only by the mailrun user");
        }
        byte[] der = text.contains(PEM_BEGIN) ? pemBody(text, file) : bytes;
        RSAPrivateKey key;
        try {
            if (!(KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der)) instanceof RSAPrivateKey rsa)) {
                throw new DkimKeyException("dkim.private-key-file " + file + " is not an RSA private key");
            }
            key = rsa;
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new DkimKeyException("dkim.private-key-file " + file
                    + " is not an RSA private key in PKCS#8 PEM or DER form", e);
        }
        if (key.getModulus().bitLength() < MIN_BITS) {
            throw new DkimKeyException("dkim.private-key-file " + file + " is a " + key.getModulus().bitLength()
                    + "-bit key; DKIM needs at least " + MIN_BITS + " bits (2048 recommended)");
        }
        return key;
    }

    private static byte[] pemBody(String text, Path file) {
        int begin = text.indexOf(PEM_BEGIN) + PEM_BEGIN.length();
        int end = text.indexOf(PEM_END, begin);
        if (end < 0) {
            throw new DkimKeyException("dkim.private-key-file " + file + " has no '" + PEM_END + "' line");
        }
        try {
            return Base64.getMimeDecoder().decode(text.substring(begin, end));
        } catch (IllegalArgumentException e) {
            throw new DkimKeyException("dkim.private-key-file " + file + " has a damaged PEM body", e);
        }
    }
}
