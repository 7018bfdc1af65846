package dev.mailrun.campaign.importing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mailrun.campaign.attach.RecipientFiles;
import dev.mailrun.campaign.importing.CsvFile.CsvRow;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.mail.HeaderValues;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.apache.commons.csv.CSVRecord;

/**
 * The checks a row passes on its own, before any other row or the database is looked at: field
 * count, size ({@link RowSize}), address syntax, the address filter, and the values that end up in a header — the name
 * (the To display name) and the columns the template's subject uses — by the mail package's own
 * header rule, so a row that could never be sent is rejected here rather than failed at send time;
 * and the recipient's own file, when the file has an attachment column ({@link RowFiles}).
 * The result is the row to write, or why not.
 */
final class RowChecks {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_NAME_CHARS = 200;

    /** What checking one row found. */
    sealed interface Result permits Accepted, Rejected {}

    record Accepted(Row row) implements Result {}

    record Rejected(long line, String rawEmail, RecipientRejectReason reason, String detail) implements Result {}

    private final CsvHeader header;
    private final AddressFilter filter;
    private final RowSize size;
    // Columns by position: looking a value up by name costs a map lookup per field and row.
    private final int emailIndex;
    private final int nameIndex;
    private final int[] fieldIndexes;
    /** The merge-field names, as stored: the column names stripped. */
    private final String[] fieldNames;
    /** The positions in {@link #fieldIndexes} of the fields whose values go into the subject. */
    private final int[] subjectFields;
    private final RowFiles files;
    /** The column naming the recipient's own file; -1: none. */
    private final int attachmentIndex;

    /** @param subjectFields the merge fields the campaign's subject reads */
    RowChecks(CsvHeader header, AddressFilter filter, Set<String> subjectFields, RowSize size, RowFiles files) {
        this.header = header;
        this.files = files;
        this.attachmentIndex = header.attachmentColumn().map(header.columns()::indexOf).orElse(-1);
        this.filter = filter;
        this.size = size;
        this.emailIndex = header.columns().indexOf(header.emailColumn());
        this.nameIndex = header.nameColumn().map(header.columns()::indexOf).orElse(-1);
        List<String> fields = header.fieldColumns();
        this.fieldIndexes = fields.stream().mapToInt(header.columns()::indexOf).toArray();
        this.fieldNames = fields.stream().map(String::strip).toArray(String[]::new);
        this.subjectFields = IntStream.range(0, fieldNames.length).filter(i -> subjectFields.contains(fieldNames[i])).toArray();
    }

    Result check(CsvRow row) {
        CSVRecord record = row.record();
        long line = row.line();
        String rawEmail = emailIndex < record.size() ? record.get(emailIndex) : "";
        if (record.size() != header.size()) {
            return new Rejected(line, rawEmail, RecipientRejectReason.WRONG_FIELD_COUNT,
                    "expected " + header.size() + " fields, found " + record.size());
        }
        Optional<String> tooLarge = size.problem(record);
        if (tooLarge.isPresent()) {
            return new Rejected(line, rawEmail, RecipientRejectReason.TOO_LARGE, tooLarge.get());
        }
        EmailAddress.Check check = EmailAddress.check(rawEmail);
        if (check instanceof EmailAddress.Invalid invalid) {
            return new Rejected(line, rawEmail, invalid.kind() == EmailAddress.Kind.TOO_LONG ? RecipientRejectReason.TOO_LONG
                    : RecipientRejectReason.INVALID_SYNTAX, invalid.detail());
        }
        EmailAddress address = ((EmailAddress.Valid) check).address();
        Optional<AddressFilter.Rejection> filtered = filter.check(address);
        if (filtered.isPresent()) {
            return new Rejected(line, rawEmail, filtered.get().reason(), filtered.get().detail());
        }
        String name = nameIndex < 0 ? null : record.get(nameIndex).strip();
        Optional<String> badField = name == null ? Optional.empty() : nameProblem(name);
        for (int i = 0; i < subjectFields.length && badField.isEmpty(); i++) {
            String field = fieldNames[subjectFields[i]];
            badField = headerProblem("Subject", record.get(fieldIndexes[subjectFields[i]])).map(p -> "field '" + field + "': " + p);
        }
        if (badField.isPresent()) {
            return new Rejected(line, rawEmail, RecipientRejectReason.INVALID_FIELD, badField.get());
        }
        String attachment = attachmentIndex < 0 ? "" : record.get(attachmentIndex).strip();
        RecipientFiles.Checked file = null;
        if (!attachment.isEmpty()) {
            try {
                file = files.check(attachment);
            } catch (RecipientFiles.FileProblem e) {
                return new Rejected(line, rawEmail, RecipientRejectReason.ATTACHMENT, e.getMessage());
            }
        }
        String storedName = name == null || name.isEmpty() ? null : name;
        String fieldsJson = fields(record);
        String email = address.value();
        long storedBytes = size.stored(email, storedName, fieldsJson)
                + (file == null ? 0 : (long) Utf8.MAX_BYTES_PER_CHAR * attachment.length() + 64);
        Optional<String> unstorable = size.storedProblem(storedBytes);
        if (unstorable.isPresent()) {
            return new Rejected(line, rawEmail, RecipientRejectReason.TOO_LARGE, unstorable.get());
        }
        return new Accepted(new Row(line, rawEmail, email, address.suppressionKey(), storedName, fieldsJson,
                file == null ? null : file.path(), file == null ? null : file.sha256(), storedBytes, new AtomicLong()));
    }

    private static Optional<String> nameProblem(String name) {
        if (name.length() > MAX_NAME_CHARS) {
            return Optional.of("field 'name': longer than " + MAX_NAME_CHARS + " characters");
        }
        return headerProblem("To display name", name).map(p -> "field 'name': " + p);
    }

    /**
     * The mail package's header rule. Printable ASCII and spaces are legal in a header under any
     * such rule (RFC 5322), so most values need no closer look; the rest get the rule itself, which
     * costs a stream per value and would otherwise be a fifth of the reader's time.
     */
    private static Optional<String> headerProblem(String header, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                return HeaderValues.check(header, value);
            }
        }
        return Optional.empty();
    }

    private String fields(CSVRecord record) {
        if (fieldIndexes.length == 0) {
            return null;
        }
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < fieldIndexes.length; i++) {
            m.put(fieldNames[i], record.get(fieldIndexes[i]));
        }
        try {
            return JSON.writeValueAsString(m);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode merge fields as JSON", e);
        }
    }
}
