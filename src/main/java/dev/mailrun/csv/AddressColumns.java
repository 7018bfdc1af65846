package dev.mailrun.csv;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Which column of a header row holds the email address: the one rule every import (recipients,
 * suppressions) reads a header by. Providers call it {@code email} (SendGrid, listmonk),
 * {@code EmailAddress} (Amazon SES, Postmark), {@code address} (Mailgun) or {@code Recipient} (bounce
 * reports). Names are compared without case, spaces, underscores or hyphens, so {@code Email Address},
 * {@code email_address} and {@code E-mail} match too. When several columns match, the first name in
 * {@link #NAMES} wins: a list with both {@code email} and a postal {@code address} column is read by
 * its email column.
 */
public final class AddressColumns {

    /** Accepted names, normalised, best first. */
    public static final List<String> NAMES = List.of("email", "emailaddress", "recipient", "address");

    /** Delimiters other programs write CSV with (a spreadsheet in a locale whose decimal mark is a comma writes ';'). */
    private static final List<Character> OTHER_DELIMITERS = List.of(';', '\t', '|');

    private AddressColumns() {}

    /** The outcome: the column, or why the header row has none. */
    public sealed interface Found permits Column, Refused {}

    /** @param index the column's position; {@code name} as written, surrounding spaces removed */
    public record Column(String name, int index) implements Found {}

    /** @param reason one line, naming no file: the caller says which file */
    public record Refused(String reason) implements Found {}

    public static Found find(List<String> header) {
        if (header.isEmpty() || header.size() == 1 && header.get(0).isBlank()) {
            return new Refused("empty file; expected a header row with an email column");
        }
        for (String wanted : NAMES) {
            int found = -1;
            for (int i = 0; i < header.size(); i++) {
                if (normalised(header.get(i)).equals(wanted)) {
                    if (found >= 0) {
                        return new Refused("header row has two address columns, '" + Shown.of(header.get(found).strip())
                                + "' and '" + Shown.of(header.get(i).strip()) + "'");
                    }
                    found = i;
                }
            }
            if (found >= 0) {
                return new Column(header.get(found).strip(), found);
            }
        }
        Optional<Character> delimiter = otherDelimiter(header);
        String found = header.stream().map(Shown::of).collect(Collectors.joining(", "));
        if (delimiter.isPresent()) {
            return new Refused("no email column in the header row (found: " + found + "); its columns look separated by "
                    + shown(delimiter.get()) + ": save the file as comma-separated CSV (RFC 4180)");
        }
        if (header.get(0).contains("@") && !header.get(0).strip().contains(" ")) {
            return new Refused("the first line is an address, not a header row; add a first line naming the column (email)");
        }
        return new Refused("no email column in the header row (looked for email, email address, recipient, address; found: "
                + found + ")");
    }

    /** The delimiter a header read as one column shows it was written with, when splitting by it finds an address column. */
    private static Optional<Character> otherDelimiter(List<String> header) {
        for (char d : OTHER_DELIMITERS) {
            for (String name : header) {
                if (name.indexOf(d) >= 0 && List.of(name.split(java.util.regex.Pattern.quote(String.valueOf(d)))).stream()
                        .anyMatch(part -> NAMES.contains(normalised(part)))) {
                    return Optional.of(d);
                }
            }
        }
        return Optional.empty();
    }

    private static String shown(char delimiter) {
        return delimiter == '\t' ? "tabs" : "'" + delimiter + "'";
    }

    static String normalised(String name) {
        return name.strip().toLowerCase(Locale.ROOT).replace(" ", "").replace("_", "").replace("-", "");
    }
}
