package dev.mailrun.mail.feedback;

/** Small helpers for the identifiers providers echo. */
final class FeedbackIds {

    private FeedbackIds() {}

    /** A Message-ID with angle brackets, as mailrun writes and stores it. */
    static String bracketed(String messageId) {
        String m = messageId.strip();
        return m.startsWith("<") && m.endsWith(">") ? m : "<" + m + ">";
    }
}
