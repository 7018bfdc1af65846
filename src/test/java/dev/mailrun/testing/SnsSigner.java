package dev.mailrun.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mailrun.mail.feedback.HttpsFetcher;
import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Plays SNS in tests: an RSA key and a self-signed certificate made here (never a real AWS one), SNS
 * messages signed with them the way SNS documents it, and an {@link HttpsFetcher} that hands out the
 * certificate for {@link #CERT_URL} instead of going to the network.
 */
public final class SnsSigner {

    public static final URI CERT_URL = URI.create(
            "https://sns.us-east-1.amazonaws.com/SimpleNotificationService-0000000000000000000000000000test.pem");
    public static final String TOPIC = "arn:aws:sns:us-east-1:123456789012:ses-feedback";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final KeyPair keys;
    private final byte[] pem;
    private final List<URI> fetched = Collections.synchronizedList(new ArrayList<>());
    private final AtomicBoolean unreachable = new AtomicBoolean();

    private SnsSigner(KeyPair keys, byte[] pem) {
        this.keys = keys;
        this.pem = pem;
    }

    /** A certificate for CN=sns.amazonaws.com, valid 2020–2040. */
    public static SnsSigner create() {
        return create("sns.amazonaws.com", Instant.parse("2020-01-01T00:00:00Z"), Instant.parse("2040-01-01T00:00:00Z"));
    }

    public static SnsSigner create(String commonName, Instant notBefore, Instant notAfter) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            KeyPair keys = generator.generateKeyPair();
            X500Name name = new X500Name("CN=" + commonName + ", O=mailrun test");
            X509Certificate cert = new JcaX509CertificateConverter().getCertificate(new JcaX509v3CertificateBuilder(name,
                    BigInteger.valueOf(notBefore.getEpochSecond()), Date.from(notBefore), Date.from(notAfter), name, keys.getPublic())
                    .build(new JcaContentSignerBuilder("SHA256withRSA").build(keys.getPrivate())));
            StringWriter out = new StringWriter();
            try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
                writer.writeObject(cert);
            }
            return new SnsSigner(keys, out.toString().getBytes(StandardCharsets.US_ASCII));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Serves the certificate at {@link #CERT_URL} (and answers any other SNS URL, e.g. a SubscribeURL, with "ok"). */
    public HttpsFetcher fetcher() {
        return uri -> {
            fetched.add(uri);
            if (unreachable.get()) {
                throw new IOException("connect timed out");
            }
            return uri.equals(CERT_URL) ? pem.clone() : "<ConfirmSubscriptionResponse/>".getBytes(StandardCharsets.UTF_8);
        };
    }

    /** Every URL the fetcher was asked for, in order. */
    public List<URI> fetched() {
        return List.copyOf(fetched);
    }

    public void unreachable(boolean down) {
        unreachable.set(down);
    }

    /** A Notification carrying {@code message} (an SES notification's JSON), signed with SignatureVersion {@code version}. */
    public String notification(String messageId, String message, Instant timestamp, int version) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("Type", "Notification");
        m.put("MessageId", messageId);
        m.put("TopicArn", TOPIC);
        m.put("Message", message);
        m.put("Timestamp", timestamp.toString());
        return signed(m, version, List.of("Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"));
    }

    public String subscriptionConfirmation(String messageId, String subscribeUrl, Instant timestamp) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("Type", "SubscriptionConfirmation");
        m.put("MessageId", messageId);
        m.put("Token", "2336412f37fb687f5d51e6e2425c464de257ebc2ee3bdd7cde0d4d1d0aa6dc0ec6c4d5ea0cd40c0bd1d1ff3ea4b5a6fb");
        m.put("TopicArn", TOPIC);
        m.put("Message", "You have chosen to subscribe to the topic " + TOPIC + ".\nTo confirm the subscription, visit the SubscribeURL included in this message.");
        m.put("SubscribeURL", subscribeUrl);
        m.put("Timestamp", timestamp.toString());
        return signed(m, 1, List.of("Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"));
    }

    /**
     * Signs the fields as SNS documents it: each signed field present, in this order, as
     * {@code Name\nvalue\n}, with SHA1withRSA (version 1) or SHA256withRSA (version 2).
     */
    public String signed(Map<String, String> fields, int version, List<String> signedOrder) {
        StringBuilder canonical = new StringBuilder();
        for (String name : signedOrder) {
            if (fields.containsKey(name)) {
                canonical.append(name).append('\n').append(fields.get(name)).append('\n');
            }
        }
        try {
            Signature signer = Signature.getInstance(version == 1 ? "SHA1withRSA" : "SHA256withRSA");
            signer.initSign(keys.getPrivate());
            signer.update(canonical.toString().getBytes(StandardCharsets.UTF_8));
            Map<String, String> out = new LinkedHashMap<>(fields);
            out.put("SignatureVersion", Integer.toString(version));
            out.put("Signature", Base64.getEncoder().encodeToString(signer.sign()));
            out.put("SigningCertURL", CERT_URL.toString());
            out.putIfAbsent("UnsubscribeURL", "https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe&SubscriptionArn=" + TOPIC + ":1");
            return JSON.writeValueAsString(out);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
