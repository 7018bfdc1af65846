package dev.mailrun.campaign.importing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/** The rejects CSV an operator asked for: one row per rejected line, in the order they were decided. */
final class RejectsFile implements AutoCloseable {

    private final CSVPrinter printer;

    private RejectsFile(CSVPrinter printer) {
        this.printer = printer;
    }

    /** @throws ImportRefusedException when the file cannot be created; nothing was imported then */
    static RejectsFile create(Path path) {
        try {
            CSVPrinter printer = new CSVPrinter(Files.newBufferedWriter(path, StandardCharsets.UTF_8), CSVFormat.RFC4180);
            printer.printRecord("line", "email", "reason", "detail");
            return new RejectsFile(printer);
        } catch (IOException e) {
            throw new ImportRefusedException(path + ": cannot write the rejects file (" + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage().lines().findFirst().orElse("")) + ")");
        }
    }

    void add(ImportReport.Reject reject) throws IOException {
        printer.printRecord(reject.line(), reject.email(), reject.reason().label(), reject.detail());
    }

    @Override
    public void close() throws IOException {
        printer.close(true);
    }
}
