package dev.mailrun.campaign.importing;

import dev.mailrun.csv.CsvFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.commons.csv.CSVException;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * An import file read as strict UTF-8 (an initial byte-order mark is skipped) and RFC 4180 CSV
 * with a header row; empty lines between records are skipped.
 *
 * <p>{@link #check} reads the whole file once for structure only, so a file that is not CSV, not
 * UTF-8 or has no email column fails before anything is imported; {@link #records} then streams it.
 */
final class CsvFile {

    private final Path path;
    private final CsvHeader header;

    private CsvFile(Path path, CsvHeader header) {
        this.path = path;
        this.header = header;
    }

    /**
     * The structure pass.
     *
     * @throws ImportFileException when the file as a whole cannot be imported
     */
    static CsvFile check(Path file, String attachmentColumn) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new ImportFileException(file, "no such file");
        }
        long lastComplete = 1;
        try (CSVParser parser = CsvFiles.open(file)) {
            CsvHeader header = CsvHeader.of(file, parser.getHeaderNames(), attachmentColumn);
            Iterator<CSVRecord> it = parser.iterator();
            lastComplete = parser.getCurrentLineNumber();
            while (it.hasNext()) {
                it.next();
                lastComplete = parser.getCurrentLineNumber();
            }
            return new CsvFile(file, header);
        } catch (UncheckedIOException e) {
            if (e.getCause() instanceof CharacterCodingException) {
                throw unreadable(file, e.getCause());
            }
            throw new ImportFileException(file, "not a valid CSV file: "
                    + CsvFiles.invalidRecord(file, lastComplete, e.getCause().getMessage()));
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new ImportFileException(file, "not a valid CSV file: " + firstLine(e.getMessage()));
        } catch (CharacterCodingException | CSVException e) {
            // The header row is parsed when the parser is made, and its errors arrive as checked exceptions.
            throw unreadable(file, e);
        }
    }

    CsvHeader header() {
        return header;
    }

    /** The records in file order, each with the line it starts on; close it when done. */
    Records records() throws IOException {
        return new Records(CsvFiles.open(path));
    }

    /** One record and the line of the file it starts on. */
    record CsvRow(long line, CSVRecord record) {}

    /**
     * A stream of records over an open file. A record starts on the line it was reported from: blank
     * lines before it are skipped, and a quoted field may span lines. The parser counts line breaks
     * (CR, LF, or CR LF as one) up to the end of each record, so the start is the line the record
     * ends on less the line breaks inside its fields, counted the same way.
     */
    static final class Records implements Iterator<CsvRow>, AutoCloseable {
        private final CSVParser parser;
        private final Iterator<CSVRecord> records;
        private long previousEnd;

        private Records(CSVParser parser) {
            this.parser = parser;
            this.records = parser.iterator();
            this.previousEnd = parser.getCurrentLineNumber();
        }

        @Override
        public boolean hasNext() {
            return records.hasNext();
        }

        @Override
        public CsvRow next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            CSVRecord record = records.next();
            long end = parser.getCurrentLineNumber();
            // Almost every record is one line right after the one before: nothing to count.
            long start = end == previousEnd + 1 ? end : CsvFiles.startLine(record, end);
            previousEnd = end;
            return new CsvRow(start, record);
        }

        @Override
        public void close() throws IOException {
            parser.close();
        }
    }

    private static ImportFileException unreadable(Path file, Throwable cause) throws IOException {
        if (cause instanceof CharacterCodingException) {
            return new ImportFileException(file, CsvFiles.notUtf8(file));
        }
        return new ImportFileException(file, "not a valid CSV file: " + firstLine(cause.getMessage()));
    }

    private static String firstLine(String s) {
        return s == null ? "unreadable" : s.lines().findFirst().orElse(s);
    }
}
