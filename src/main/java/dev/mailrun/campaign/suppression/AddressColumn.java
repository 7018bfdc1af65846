package dev.mailrun.campaign.suppression;

import dev.mailrun.campaign.model.EmailAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The column of a suppression export that holds the address, found by its header name: providers
 * call it {@code email} (SendGrid, listmonk), {@code EmailAddress} (Amazon SES, Postmark),
 * {@code address} (Mailgun) or {@code Recipient} (bounce reports). Names are compared without case,
 * spaces, underscores or hyphens, so {@code Email Address}, {@code email_address} and {@code E-mail}
 * match too. When several columns match, the first name in {@link #NAMES} wins: a list with both
 * {@code email} and a postal {@code address} column is read by its email column.
 *
 * @param index the column's position; rows are read by position, so a header naming other columns
 *              twice does not matter
 */
record AddressColumn(String name, int index, int width) {

    /** Accepted names, normalised, best first. */
    static final List<String> NAMES = List.of("email", "emailaddress", "recipient", "address");

    static AddressColumn find(Path file, List<String> header) {
        if (header.isEmpty() || header.size() == 1 && header.get(0).isBlank()) {
            throw new SuppressionFileException(file + ": empty file; expected a header row with an email column");
        }
        for (String wanted : NAMES) {
            int found = -1;
            for (int i = 0; i < header.size(); i++) {
                if (normalised(header.get(i)).equals(wanted)) {
                    if (found >= 0) {
                        throw new SuppressionFileException(file + ": header row has two address columns, '"
                                + header.get(found).strip() + "' and '" + header.get(i).strip() + "'");
                    }
                    found = i;
                }
            }
            if (found >= 0) {
                return new AddressColumn(header.get(found).strip(), found, header.size());
            }
        }
        if (EmailAddress.check(header.get(0)) instanceof EmailAddress.Valid) {
            throw new SuppressionFileException(file + ": the first line is an address, not a header row; "
                    + "add a first line naming the column (email)");
        }
        throw new SuppressionFileException(file + ": no address column in the header row (looked for email, "
                + "email address, recipient, address; found: " + String.join(", ", header) + ")");
    }

    private static String normalised(String name) {
        return name.strip().toLowerCase(Locale.ROOT).replace(" ", "").replace("_", "").replace("-", "");
    }
}
