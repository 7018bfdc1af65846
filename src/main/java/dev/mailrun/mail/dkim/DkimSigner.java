package dev.mailrun.mail.dkim;

import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import java.security.interfaces.RSAPrivateKey;
import java.util.List;
import org.simplejavamail.utils.mail.dkim.Canonicalization;
import org.simplejavamail.utils.mail.dkim.DkimException;
import org.simplejavamail.utils.mail.dkim.DkimMessage;
import org.simplejavamail.utils.mail.dkim.SigningAlgorithm;

/**
 * Signs outgoing messages with DKIM: RSA-SHA256, relaxed/relaxed canonicalisation, covering at least
 * From, To, Subject, Date, Message-ID, MIME headers, List-Unsubscribe and List-Unsubscribe-Post.
 *
 * <p>The key is read once, at construction, so a bad key stops start-up rather than the first send.
 * The signature itself is computed when the returned message is written out (sent). Thread-safe:
 * each message gets its own signing engine, because the library's keeps per-signature state.
 */
public final class DkimSigner {

    /** Signed in addition to the library's default set (which already has List-Unsubscribe). */
    static final List<String> EXTRA_SIGNED_HEADERS = List.of("List-Unsubscribe-Post", "Feedback-ID");

    private final DkimSettings settings;
    private final RSAPrivateKey key;

    /** @throws DkimKeyException when the key file is missing, unreadable, or not an RSA private key */
    public DkimSigner(DkimSettings settings) {
        this.settings = settings;
        this.key = DkimKeys.load(settings.privateKeyFile());
        engine(); // the library checks domain and key together: fail now, not at the first send
    }

    /** A copy of the message that carries a DKIM-Signature header once written out. */
    public MimeMessage sign(MimeMessage message) throws MessagingException {
        return new DkimMessage(message, engine());
    }

    DkimSettings settings() {
        return settings;
    }

    private org.simplejavamail.utils.mail.dkim.DkimSigner engine() {
        try {
            var engine = new org.simplejavamail.utils.mail.dkim.DkimSigner(settings.domain(), settings.selector(), key);
            engine.setSigningAlgorithm(SigningAlgorithm.SHA256_WITH_RSA);
            engine.setHeaderCanonicalization(Canonicalization.RELAXED);
            engine.setBodyCanonicalization(Canonicalization.RELAXED);
            engine.setLengthParam(false);   // l= would let anyone append content under our signature
            engine.setCheckDomainKey(false); // no DNS lookups on the sending path
            EXTRA_SIGNED_HEADERS.forEach(engine::addHeaderToSign);
            return engine;
        } catch (DkimException e) {
            throw new DkimKeyException("DKIM signing cannot be set up for domain " + settings.domain() + ": " + e.getMessage(), e);
        }
    }
}
