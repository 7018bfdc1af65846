package dev.mailrun.campaign.importing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mailrun.campaign.importing.CsvFile.CsvRow;
import dev.mailrun.campaign.model.EmailAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.commons.csv.CSVRecord;

/**
 * The checks a row passes on its own, before any other row or the database is looked at: field
 * count, address syntax, the address filter, the name. The result is the row to write, or why not.
 */
final class RowChecks {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_NAME_CHARS = 200;

    /** What checking one row found. */
    sealed interface Result permits Accepted, Rejected {}

    record Accepted(Row row) implements Result {}

    record Rejected(long line, String rawEmail, RejectReason reason, String detail) implements Result {}

    private final CsvHeader header;
    private final AddressFilter filter;

    RowChecks(CsvHeader header, AddressFilter filter) {
        this.header = header;
        this.filter = filter;
    }

    Result check(CsvRow row) {
        CSVRecord record = row.record();
        long line = row.line();
        String rawEmail = record.isSet(header.emailColumn()) ? record.get(header.emailColumn()) : "";
        if (record.size() != header.size()) {
            return new Rejected(line, rawEmail, RejectReason.WRONG_FIELD_COUNT,
                    "expected " + header.size() + " fields, found " + record.size());
        }
        EmailAddress.Check check = EmailAddress.check(rawEmail);
        if (check instanceof EmailAddress.Invalid invalid) {
            return new Rejected(line, rawEmail, invalid.kind() == EmailAddress.Kind.TOO_LONG ? RejectReason.TOO_LONG
                    : RejectReason.INVALID_SYNTAX, invalid.reason());
        }
        EmailAddress address = ((EmailAddress.Valid) check).address();
        Optional<AddressFilter.Rejection> filtered = filter.check(address);
        if (filtered.isPresent()) {
            return new Rejected(line, rawEmail, filtered.get().reason(), filtered.get().detail());
        }
        String name = header.nameColumn().map(record::get).map(String::strip).orElse(null);
        if (name != null && (name.length() > MAX_NAME_CHARS || hasControl(name))) {
            return new Rejected(line, rawEmail, RejectReason.INVALID_FIELD,
                    "name is longer than " + MAX_NAME_CHARS + " characters or holds a line break");
        }
        return new Accepted(new Row(line, rawEmail, address, name == null || name.isEmpty() ? null : name, fields(record)));
    }

    private String fields(CSVRecord record) {
        if (header.fieldColumns().isEmpty()) {
            return null;
        }
        Map<String, String> m = new LinkedHashMap<>();
        for (String column : header.fieldColumns()) {
            m.put(column.strip(), record.get(column));
        }
        try {
            return JSON.writeValueAsString(m);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode merge fields as JSON", e);
        }
    }

    private static boolean hasControl(String s) {
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch < 0x20 || ch == 0x7f) {
                return true;
            }
        }
        return false;
    }
}
