package dev.mailrun.campaign.importing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mailrun.campaign.importing.CsvFile.CsvRow;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.mail.HeaderValues;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.commons.csv.CSVRecord;

/**
 * The checks a row passes on its own, before any other row or the database is looked at: field
 * count, size ({@link RowSize}), address syntax, the address filter, and the values that end up in a header — the name
 * (the To display name) and the columns the template's subject uses — by the mail package's own
 * header rule, so a row that could never be sent is rejected here rather than failed at send time.
 * The result is the row to write, or why not.
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
    private final RowSize size;
    /** The field columns whose values go into the subject. */
    private final List<String> subjectColumns;

    /** @param subjectFields the merge fields the campaign's subject reads */
    RowChecks(CsvHeader header, AddressFilter filter, Set<String> subjectFields, RowSize size) {
        this.header = header;
        this.filter = filter;
        this.size = size;
        this.subjectColumns = header.fieldColumns().stream().filter(column -> subjectFields.contains(column.strip())).toList();
    }

    Result check(CsvRow row) {
        CSVRecord record = row.record();
        long line = row.line();
        String rawEmail = record.isSet(header.emailColumn()) ? record.get(header.emailColumn()) : "";
        if (record.size() != header.size()) {
            return new Rejected(line, rawEmail, RejectReason.WRONG_FIELD_COUNT,
                    "expected " + header.size() + " fields, found " + record.size());
        }
        Optional<String> tooLarge = size.problem(record);
        if (tooLarge.isPresent()) {
            return new Rejected(line, rawEmail, RejectReason.TOO_LARGE, tooLarge.get());
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
        Optional<String> badField = name == null ? Optional.empty() : nameProblem(name);
        for (int i = 0; i < subjectColumns.size() && badField.isEmpty(); i++) {
            String column = subjectColumns.get(i);
            badField = HeaderValues.problem("Subject", record.get(column)).map(p -> "field '" + column.strip() + "': " + p);
        }
        if (badField.isPresent()) {
            return new Rejected(line, rawEmail, RejectReason.INVALID_FIELD, badField.get());
        }
        String storedName = name == null || name.isEmpty() ? null : name;
        String fieldsJson = fields(record);
        long storedBytes = size.stored(address.value(), storedName, fieldsJson);
        Optional<String> unstorable = size.storedProblem(storedBytes);
        if (unstorable.isPresent()) {
            return new Rejected(line, rawEmail, RejectReason.TOO_LARGE, unstorable.get());
        }
        return new Accepted(new Row(line, rawEmail, address, storedName, fieldsJson, storedBytes));
    }

    private static Optional<String> nameProblem(String name) {
        if (name.length() > MAX_NAME_CHARS) {
            return Optional.of("field 'name': longer than " + MAX_NAME_CHARS + " characters");
        }
        return HeaderValues.problem("To display name", name).map(p -> "field 'name': " + p);
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
}
