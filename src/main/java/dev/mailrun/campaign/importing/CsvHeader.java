package dev.mailrun.campaign.importing;

import dev.mailrun.csv.AddressColumns;
import dev.mailrun.csv.Shown;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The header row of an import file: which column holds the address (the rule every import reads a
 * header by, {@link AddressColumns}), which the name, which names each recipient's own file, and
 * which become merge fields (every other one, as written).
 */
record CsvHeader(List<String> columns, String emailColumn, Optional<String> nameColumn, List<String> fieldColumns,
                 Optional<String> attachmentColumn) {

    /** Merge fields every recipient gets from mailrun itself; a column may not replace them. */
    private static final Set<String> BUILT_IN_FIELDS = Set.of("unsubscribe_url", "web_url", "campaign", "preferences_url");

    CsvHeader {
        columns = List.copyOf(columns);
        fieldColumns = List.copyOf(fieldColumns);
    }

    /** How many fields every row must have. */
    int size() {
        return columns.size();
    }

    /**
     * @param attachmentName the column that names each recipient's own file, not a merge field (case ignored)
     * @throws ImportFileException naming what is wrong with the header row
     */
    static CsvHeader of(Path file, List<String> names, String attachmentName) {
        if (names.isEmpty()) {
            throw new ImportFileException(file, "empty file; expected a header row with an email column");
        }
        AddressColumns.Found address = AddressColumns.find(names);
        if (address instanceof AddressColumns.Refused refused) {
            throw new ImportFileException(file, refused.reason());
        }
        int emailIndex = ((AddressColumns.Column) address).index();
        String name = null;
        String attachment = null;
        List<String> fields = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < names.size(); i++) {
            String raw = names.get(i);
            String n = raw.strip();
            String key = n.toLowerCase(Locale.ROOT);
            if (n.isEmpty()) {
                throw new ImportFileException(file, "header row has an empty column name");
            }
            if (!seen.add(key)) {
                throw new ImportFileException(file, "header row names column '" + Shown.of(n) + "' twice");
            }
            if (i == emailIndex) {
                continue;
            }
            if (key.equals("name")) {
                name = raw;
            } else if (key.equals(attachmentName.strip().toLowerCase(Locale.ROOT))) {
                attachment = raw;
            } else if (BUILT_IN_FIELDS.contains(key)) {
                throw new ImportFileException(file, "column '" + Shown.of(n) + "' clashes with a built-in merge field");
            } else {
                fields.add(raw);
            }
        }
        return new CsvHeader(names, names.get(emailIndex), Optional.ofNullable(name), fields, Optional.ofNullable(attachment));
    }
}
