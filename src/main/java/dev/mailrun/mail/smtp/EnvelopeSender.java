package dev.mailrun.mail.smtp;

import dev.mailrun.mail.HeaderValues;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import java.util.Optional;

/** Whether an envelope sender (MAIL FROM) can go to the relay: a bare address without control characters. */
final class EnvelopeSender {

    private EnvelopeSender() {
    }

    /** The envelope sender's problem, if it has one; empty when it is absent or a bare address. */
    static Optional<String> problem(Optional<String> envelopeFrom) {
        if (envelopeFrom.isEmpty()) {
            return Optional.empty();
        }
        String sender = envelopeFrom.get();
        Optional<String> problem = HeaderValues.check("envelope sender", sender);
        if (problem.isPresent()) {
            return problem;
        }
        try {
            InternetAddress parsed = new InternetAddress(sender, true);
            if (parsed.getPersonal() != null || !parsed.getAddress().equals(sender)) {
                return Optional.of("envelope sender: '" + sender + "' must be a bare address");
            }
        } catch (AddressException e) {
            return Optional.of("envelope sender: '" + sender + "' is not a valid address (" + e.getMessage() + ")");
        }
        // The connection hands it to the transport (mail.smtp.from) when it sends.
        return Optional.empty();
    }
}
