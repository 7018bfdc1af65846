package dev.mailrun.mail;

/**
 * Which permanent enhanced status codes (RFC 3463) are about the recipient's address rather than
 * the sender or the message. The one rule for suppressing an address, whether the refusal came
 * during the SMTP conversation or later as a bounce.
 */
public final class AddressStatus {

    private AddressStatus() {}

    /**
     * True for 5.1.x (not 5.1.7 / 5.1.8, which are about the sender's address), 5.2.1 (mailbox
     * disabled) and 5.4.4 (unable to route).
     *
     * @param status an enhanced status code such as "5.1.1"; anything else is false
     */
    public static boolean permanentlyBad(String status) {
        String[] parts = status.split("\\.");
        if (parts.length != 3 || !parts[0].equals("5")) {
            return false;
        }
        String subject = parts[1];
        String detail = parts[2];
        return (subject.equals("1") && !detail.equals("7") && !detail.equals("8"))
                || (subject.equals("2") && detail.equals("1"))
                || (subject.equals("4") && detail.equals("4"));
    }
}
