package dev.mailrun.mail.bounce;

import java.util.Optional;

/**
 * Where bounces arrive: an IMAP mailbox ({@code bounce.imap.*}).
 *
 * @param processedFolder when set, processed messages are moved there; when empty they stay in
 *                        {@code folder} and get the {@link BounceMailbox#PROCESSED_KEYWORD} keyword
 */
public record MailboxSettings(String host, int port, boolean tls, String user, String password, String folder,
                              Optional<String> processedFolder) {

    static final String DEFAULT_FOLDER = "INBOX";

    public MailboxSettings {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("bounce.imap.host is not set");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("bounce.imap.port must be 1-65535, was " + port);
        }
        if (user == null || user.isBlank()) {
            throw new IllegalArgumentException("bounce.imap.user is not set");
        }
        if (password == null) {
            throw new IllegalArgumentException("bounce.imap.password is not set");
        }
        folder = folder == null || folder.isBlank() ? DEFAULT_FOLDER : folder.strip();
        processedFolder = processedFolder == null ? Optional.empty()
                : processedFolder.map(String::strip).filter(f -> !f.isEmpty());
        if (processedFolder.isPresent() && processedFolder.get().equalsIgnoreCase(folder)) {
            throw new IllegalArgumentException("bounce.imap.processed-folder must differ from bounce.imap.folder ("
                    + folder + ")");
        }
    }

    /** Never shows the password, so settings can be logged. */
    @Override
    public String toString() {
        return "MailboxSettings[host=" + host + ", port=" + port + ", tls=" + tls + ", user=" + user
                + ", password=***, folder=" + folder + ", processedFolder=" + processedFolder.orElse("-") + "]";
    }
}
