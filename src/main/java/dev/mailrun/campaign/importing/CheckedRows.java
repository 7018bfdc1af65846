package dev.mailrun.campaign.importing;

import dev.mailrun.campaign.attach.AttachmentLimits;
import dev.mailrun.campaign.attach.RecipientFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;

/**
 * The recipient import's reader and row checks, for an import of the same files into rows of another
 * kind (subscribers into a list), so that both read a file one way and reject a row for the same
 * reasons: the structure pass ({@link CsvFile}: strict UTF-8, RFC 4180, an address column found by
 * the one rule), then each row checked on its own ({@link RowChecks}: field count, size, address
 * syntax, the address filter, the name). Columns other than the address and {@code name} are the
 * row's fields, a JSON object of strings; no column names a file.
 *
 * <p>What a row is checked against in the database (the suppression list, repeats of an earlier row)
 * is the importer's, as is the order its rows are written in.
 */
public final class CheckedRows implements AutoCloseable {

    /** What checking one row found. */
    public sealed interface Result permits Accepted, Rejected {}

    /**
     * A row to write.
     *
     * @param email      the address as stored ({@code EmailAddress.value()})
     * @param key        the address lower-cased ({@code EmailAddress.suppressionKey()}): what repeats are found by
     * @param name       the name, or null when the file has no name column or the row's is blank
     * @param fieldsJson the other columns as a compact JSON object of strings, or null when there are none
     */
    public record Accepted(long line, String rawEmail, String email, String key, String name, String fieldsJson) implements Result {}

    public record Rejected(long line, String rawEmail, RecipientRejectReason reason, String detail) implements Result {}

    /**
     * No column names a recipient's own file: a header name is never blank ({@link CsvHeader#of}
     * refuses an empty one), so it never equals this one.
     */
    private static final String NO_ATTACHMENT_COLUMN = "";

    private final CsvHeader header;
    private final RowChecks checks;
    private final CsvFile.Records records;

    private CheckedRows(CsvHeader header, RowChecks checks, CsvFile.Records records) {
        this.header = header;
        this.checks = checks;
        this.records = records;
    }

    /**
     * Reads the whole file once for its structure, then opens it for its rows.
     *
     * @param settings the row size limits ({@code import.max-field-bytes}, {@code import.max-row-bytes})
     * @throws ImportFileException when the file as a whole cannot be imported; nothing was read then
     */
    public static CheckedRows open(DataSource dataSource, Path file, AddressFilter filter, ImportSettings settings)
            throws IOException, SQLException {
        CsvFile csv = CsvFile.check(file, NO_ATTACHMENT_COLUMN);
        RowSize size = new RowSize(csv.header().columns(), settings, StatementSize.of(dataSource));
        RowChecks checks = new RowChecks(csv.header(), filter, Set.of(), size,
                new RowFiles(RecipientFiles.none(AttachmentLimits.DEFAULTS), 0));
        return new CheckedRows(csv.header(), checks, csv.records());
    }

    /** The names of the field columns, stripped, in file order: the keys of every row's {@code fieldsJson}. */
    public List<String> fieldNames() {
        return header.fieldColumns().stream().map(String::strip).toList();
    }

    /** The address column as the header names it. */
    public String addressColumn() {
        return header.emailColumn().strip();
    }

    public Optional<String> nameColumn() {
        return header.nameColumn().map(String::strip);
    }

    public boolean hasNext() {
        return records.hasNext();
    }

    /** The next row, checked. */
    public Result next() {
        RowChecks.Result r = checks.check(records.next());
        if (r instanceof RowChecks.Rejected rejected) {
            return new Rejected(rejected.line(), rejected.rawEmail(), rejected.reason(), rejected.detail());
        }
        Row row = ((RowChecks.Accepted) r).row();
        return new Accepted(row.line(), row.rawEmail(), row.email(), row.key(), row.name(), row.fieldsJson());
    }

    @Override
    public void close() throws IOException {
        records.close();
    }
}
