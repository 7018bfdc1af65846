package dev.mailrun.http.console;

import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.report.CampaignReport;
import dev.mailrun.http.status.StatusPage;
import java.util.List;
import java.util.Optional;

/**
 * What a campaign's page links to: its recipients as CSV ({@code …/export}, what {@code campaign export}
 * writes, streamed) and its HTML report ({@code …/report}, what {@code campaign report --html} writes,
 * shown under the status page's own policy: inline styles, nothing runs).
 */
final class CampaignFiles {

    private final ConsoleServices services;

    CampaignFiles(ConsoleServices services) {
        this.services = services;
    }

    Answer export(ConsoleRequest r) throws Exception {
        long id = r.id(0);
        try {
            services.api().campaigns().get(id);
        } catch (CampaignException e) {
            return Answer.error(404, e.getMessage() + ".");
        }
        return new Answer.Download("text/csv; charset=utf-8", "campaign-" + id + "-recipients.csv",
                out -> services.api().export().write(id, out));
    }

    Answer report(ConsoleRequest r) throws Exception {
        CampaignReport report;
        try {
            report = services.api().reports().report(r.id(0));
        } catch (CampaignException e) {
            return Answer.error(404, e.getMessage() + ".");
        }
        return new Answer.Document("text/html; charset=utf-8", StatusPage.render(List.of(report), Optional.empty()),
                ConsoleResponse.DOCUMENT_POLICY);
    }
}
