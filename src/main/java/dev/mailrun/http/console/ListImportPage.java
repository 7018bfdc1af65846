package dev.mailrun.http.console;

import dev.mailrun.campaign.audience.ImportMode;
import dev.mailrun.campaign.audience.Lists;
import dev.mailrun.campaign.audience.SubscriberImportReport;
import dev.mailrun.campaign.audience.SubscriberImportStoppedException;
import dev.mailrun.campaign.importing.ImportFileException;
import dev.mailrun.campaign.importing.ImportRefusedException;
import dev.mailrun.campaign.importing.RecipientRejectReason;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.csv.RejectedRow;
import dev.mailrun.http.server.ByteSize;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /console/subscribers/import}: a CSV file uploaded (to disk, as the recipient import's page
 * takes it) into a list, in a mode — add, update, unsubscribe, blocklist — by the importer
 * {@code subscribers import} runs, streamed in batches; then its report: rows read, what each row did,
 * rejects by reason and the rejected rows of the earliest lines. The last report stays with the
 * session until the next import into a list.
 */
final class ListImportPage {

    private final ConsoleServices services;
    private final Views views;
    private final Lists lists;

    ListImportPage(ConsoleServices services, Views views) {
        this.services = services;
        this.views = views;
        this.lists = services.audience().lists();
    }

    Answer show(ConsoleRequest r) throws Exception {
        Map<String, Object> model = new HashMap<>();
        model.put("lists", lists.list().stream().map(s -> s.list().name()).toList());
        model.put("selected", r.param("list").orElse(""));
        model.put("modes", Arrays.stream(ImportMode.values()).map(ImportMode::label).toList());
        model.put("maxSize", ByteSize.of(services.api().settings().maxUploadBytes()));
        SubscriberImportReport last = r.session().lastListImport();
        model.put("report", last == null ? null : report(last));
        return Answer.ok(views.render("list-import", r.session(), model));
    }

    Answer upload(ConsoleRequest r) throws Exception {
        Optional<String> list = r.field("list");
        String back = "/subscribers/import" + list.map(l -> "?list=" + AudienceForms.encode(l)).orElse("");
        if (list.isEmpty()) {
            throw new Refusal(back, "Choose the list to import into.");
        }
        if (r.upload().isEmpty()) {
            throw new Refusal(back, "Choose a CSV file to upload (a header line with an email column, UTF-8).");
        }
        SubscriberImportReport report;
        try {
            ImportMode mode = ImportMode.parse(r.field("mode").orElse("add"));
            report = services.audience().importer().importCsv(list.get(), mode, r.upload().get(), Optional.empty(), n -> { });
        } catch (SubscriberImportStoppedException e) {
            r.session().lastListImport(e.report());
            throw new Refusal(back, "The import stopped part-way: " + e.getMessage() + " (here: upload the same file again).");
        } catch (InvalidFields e) {
            throw new Refusal(back, "The file was not imported: " + e.problems().get(0).field() + ": " + e.problems().get(0).reason() + ".");
        } catch (ImportRefusedException | IllegalArgumentException e) {
            // The importer read the server's temporary copy: its reason without that file's path.
            String why = e instanceof ImportFileException f ? f.reason() : e.getMessage();
            throw new Refusal(back, "The file was not imported: " + why);
        }
        r.session().lastListImport(report);
        long changed = report.imported() + report.subscribed() + report.updated() + report.unsubscribed() + report.blocklisted();
        r.session().flash(report.rejected() > 0, report.rows() + " row(s) read into list " + report.list() + " (" + report.mode().label()
                + "): " + changed + " changed, " + report.unchanged() + " unchanged, " + report.rejected()
                + " rejected: see the report below.");
        return Answer.redirect(ConsoleHandler.PREFIX + back);
    }

    private static Map<String, Object> report(SubscriberImportReport report) {
        Map<String, Object> m = new HashMap<>();
        m.put("list", report.list());
        m.put("mode", report.mode().label());
        m.put("rows", report.rows());
        m.put("imported", report.imported());
        m.put("subscribed", report.subscribed());
        m.put("updated", report.updated());
        m.put("unsubscribed", report.unsubscribed());
        m.put("blocklisted", report.blocklisted());
        m.put("unchanged", report.unchanged());
        m.put("rejected", report.rejected());
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
        return m;
    }
}
