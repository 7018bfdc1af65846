package dev.mailrun.campaign.store;

/**
 * A recipient held by a run (status sending): what is needed to render and send its message.
 *
 * @param attachment       the path of its own file under content.recipient-files, or null
 * @param attachmentSha256 that file's checksum when it was imported, or null
 */
public record ClaimedRecipient(long id, String email, String name, String fieldsJson, int attempts, String attachment,
                               String attachmentSha256) {

    /** A recipient without a file of its own. */
    public ClaimedRecipient(long id, String email, String name, String fieldsJson, int attempts) {
        this(id, email, name, fieldsJson, attempts, null, null);
    }
}
