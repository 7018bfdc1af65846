package dev.mailrun.campaign.store;

/**
 * A recipient held by a run (status sending): what is needed to render and send its message.
 *
 * @param attachment       the path of its own file under content.recipient-files, or null
 * @param attachmentSha256 that file's checksum when it was imported, or null
 * @param variant          the position of its A/B variant, or null (no test, or not given one yet)
 */
public record ClaimedRecipient(long id, String email, String name, String fieldsJson, int attempts, String attachment,
                               String attachmentSha256, Integer variant) {

    /** A recipient without a file of its own. */
    public ClaimedRecipient(long id, String email, String name, String fieldsJson, int attempts) {
        this(id, email, name, fieldsJson, attempts, null, null, null);
    }

    /** A recipient of a campaign without variants. */
    public ClaimedRecipient(long id, String email, String name, String fieldsJson, int attempts, String attachment,
                            String attachmentSha256) {
        this(id, email, name, fieldsJson, attempts, attachment, attachmentSha256, null);
    }
}
