package dev.mailrun.mail.bounce;

import java.util.Optional;

/**
 * A mailbox mailrun reads over IMAP: where bounces arrive ({@code bounce.imap.*}) or, read the same
 * way, where replies arrive ({@code replies.imap.*}).
 *
 * @param processedFolder when set, processed messages are moved there; when empty they stay in
 *                        {@code folder} and get the {@link BounceMailbox#PROCESSED_KEYWORD} keyword
 * @param name            {@code bounce} or {@code replies}: the prefix of the keys, which problems name
 */
public record MailboxSettings(String host, int port, boolean tls, String user, String password, String folder,
                              Optional<String> processedFolder, String name) {

    static final String DEFAULT_FOLDER = "INBOX";
    /** The bounce mailbox's name. */
    public static final String BOUNCE = "bounce";

    /** The bounce mailbox ({@code bounce.imap.*}). */
    public MailboxSettings(String host, int port, boolean tls, String user, String password, String folder,
                           Optional<String> processedFolder) {
        this(host, port, tls, user, password, folder, processedFolder, BOUNCE);
    }

    public MailboxSettings {
        if (name == null || !name.matches("[a-z]{1,20}")) {
            throw new IllegalArgumentException("mailbox name must be a lower-case word, got '" + name + "'");
        }
        String keys = name + ".imap.";
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException(keys + "host is not set");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException(keys + "port must be 1-65535, was " + port);
        }
        if (user == null || user.isBlank()) {
            throw new IllegalArgumentException(keys + "user is not set");
        }
        if (password == null) {
            throw new IllegalArgumentException(keys + "password is not set");
        }
        folder = folder == null || folder.isBlank() ? DEFAULT_FOLDER : folder.strip();
        processedFolder = processedFolder == null ? Optional.empty()
                : processedFolder.map(String::strip).filter(f -> !f.isEmpty());
        if (processedFolder.isPresent() && processedFolder.get().equalsIgnoreCase(folder)) {
            throw new IllegalArgumentException(keys + "processed-folder must differ from " + keys + "folder ("
                    + folder + ")");
        }
    }

    /** Whether {@code other} reads the same folder of the same account: two readers would take each other's mail. */
    public boolean sameFolderAs(MailboxSettings other) {
        return host.equalsIgnoreCase(other.host) && port == other.port && user.equalsIgnoreCase(other.user)
                && folder.equalsIgnoreCase(other.folder);
    }

    /** Never shows the password, so settings can be logged. */
    @Override
    public String toString() {
        return "MailboxSettings[name=" + name + ", host=" + host + ", port=" + port + ", tls=" + tls + ", user=" + user
                + ", password=***, folder=" + folder + ", processedFolder=" + processedFolder.orElse("-") + "]";
    }
}
