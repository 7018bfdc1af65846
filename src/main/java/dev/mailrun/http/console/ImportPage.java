package dev.mailrun.http.console;

import dev.mailrun.campaign.importing.ImportFileException;
import dev.mailrun.campaign.importing.ImportRefusedException;
import dev.mailrun.campaign.importing.ImportStoppedException;
import dev.mailrun.campaign.importing.RecipientImportReport;
import dev.mailrun.campaign.importing.RecipientRejectReason;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.csv.RejectedRow;
import dev.mailrun.http.server.ByteSize;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /console/campaigns/<id>/import}: a CSV file uploaded to the importer {@code recipients import}
 * runs, then its report — rows read, as imported, duplicates and other rejects (which add up to them),
 * rejected by reason, the rejected rows of the earliest lines in line order — and the rejects file to download. The last import's report and rejects file stay with
 * the session (one at a time) until the next import or the end of the session.
 */
final class ImportPage {

    /** The last import of a session: its campaign, report, and rejects file (deleted when replaced). */
    record Done(long campaignId, RecipientImportReport report, Optional<Path> rejects) {}

    private final ConsoleServices services;
    private final Views views;

    ImportPage(ConsoleServices services, Views views) {
        this.services = services;
        this.views = views;
    }

    Answer show(ConsoleRequest r) throws Exception {
        long id = r.id(0);
        Map<String, Object> model = new HashMap<>();
        try {
            model.put("c", Figures.summary(services.api().reports().report(id)));
        } catch (CampaignException e) {
            return Answer.error(404, e.getMessage() + ".");
        }
        model.put("maxSize", ByteSize.of(services.api().settings().maxUploadBytes()));
        Done last = r.session().lastImport();
        model.put("report", last != null && last.campaignId() == id ? report(last) : null);
        return Answer.ok(views.render("import", r.session(), model));
    }

    Answer upload(ConsoleRequest r) throws Exception {
        long id = r.id(0);
        String back = "/campaigns/" + id + "/import";
        if (r.upload().isEmpty()) {
            throw new Refusal(back, "Choose a CSV file to upload (a header line with an email column, UTF-8).");
        }
        Path rejects = Files.createTempFile("mailrun-console-rejects", ".csv");
        RecipientImportReport report;
        try {
            report = services.api().importer().importCsv(id, r.upload().get(), Optional.of(rejects), n -> { });
        } catch (ImportStoppedException e) {
            remember(r.session(), new Done(id, e.report(), Optional.of(rejects)));
            throw new Refusal(back, "The import stopped part-way: " + e.getMessage() + " What was imported stays; upload the file again to add the rest.");
        } catch (ImportRefusedException | CampaignException | IllegalArgumentException e) {
            UploadForm.deleteQuietly(rejects);
            // The importer read the server's temporary copy: its reason without that file's path.
            String why = e instanceof ImportFileException f ? f.reason() : e.getMessage();
            throw new Refusal(back, "The file was not imported: " + why);
        }
        remember(r.session(), new Done(id, report, Optional.of(rejects)));
        r.session().flash(report.rejected() > 0, report.imported() + " recipient(s) imported, " + report.rejected()
                + " row(s) rejected (duplicates included): see the report below.");
        return Answer.redirect(ConsoleHandler.PREFIX + back);
    }

    Answer rejects(ConsoleRequest r) {
        long id = r.id(0);
        Done last = r.session().lastImport();
        if (last == null || last.campaignId() != id || last.rejects().isEmpty() || !Files.exists(last.rejects().get())) {
            return Answer.error(404, "There is no rejects file of an import into campaign " + id + " since you logged in.");
        }
        return new Answer.Download("text/csv; charset=utf-8", "campaign-" + id + "-rejects.csv",
                out -> Files.newBufferedReader(last.rejects().get()).transferTo(out));
    }

    private static void remember(ConsoleSession session, Done done) {
        Done before = session.lastImport(done);
        if (before != null) {
            before.rejects().ifPresent(UploadForm::deleteQuietly);
        }
    }

    private static Map<String, Object> report(Done done) {
        RecipientImportReport report = done.report();
        Map<String, Object> m = new HashMap<>();
        m.put("rows", report.rows());
        m.put("imported", report.imported());
        long duplicates = report.rejectedByReason().getOrDefault(RecipientRejectReason.DUPLICATE_IN_FILE, 0L)
                + report.rejectedByReason().getOrDefault(RecipientRejectReason.ALREADY_IN_CAMPAIGN, 0L);
        // Boxes that add up to the rows read: a duplicate is counted once, in its own box.
        m.put("duplicates", duplicates);
        m.put("rejected", report.rejected() - duplicates);
        List<Map<String, Object>> reasons = new ArrayList<>();
        report.rejectedByReason().entrySet().stream().filter(e -> e.getValue() > 0).sorted(Map.Entry.comparingByKey())
                .forEach(e -> reasons.add(Map.of("reason", e.getKey().label(), "count", e.getValue())));
        m.put("reasons", reasons);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (RejectedRow<RecipientRejectReason> row : report.firstRejects()) {
            rows.add(Map.of("line", row.line(), "email", String.valueOf(row.email()), "reason", row.reason().label(),
                    "detail", row.detail() == null ? "" : row.detail()));
        }
        m.put("firstRejects", rows);
        m.put("hasRejectsFile", report.rejected() > 0 && done.rejects().isPresent());
        return m;
    }
}
