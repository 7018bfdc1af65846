package dev.mailrun.campaign.importing;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A row that passed every check of its own and waits to be written.
 *
 * @param email       the address as stored ({@code EmailAddress.value()})
 * @param key         the key duplicates are found by: the suppression key, so that addresses differing
 *                    only in case are one recipient, as they are one entry of the suppression list
 * @param fieldsJson  the merge fields as a JSON object, or null when the file has no field columns
 * @param storedBytes at least the bytes the row takes in an insert statement (see {@link RowSize#stored})
 * @param attachment  the path of the recipient's own file under content.recipient-files, or null
 * @param attachmentSha256 that file's checksum as the import read it, or null
 * @param firstLine   where this address first occurs in the file: set once the row's batch has
 *                    committed (this line, or an earlier one the database found), 0 until then
 */
record Row(long line, String rawEmail, String email, String key, String name, String fieldsJson, String attachment,
           String attachmentSha256, long storedBytes, AtomicLong firstLine) {
}
