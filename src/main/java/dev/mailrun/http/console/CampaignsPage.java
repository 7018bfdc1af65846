package dev.mailrun.http.console;

import dev.mailrun.campaign.model.CampaignStatus;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@code GET /console/campaigns[?status=…]}: every campaign with its status, progress, rate, holds and ETA. */
final class CampaignsPage {

    private final ConsoleServices services;
    private final Views views;

    CampaignsPage(ConsoleServices services, Views views) {
        this.services = services;
        this.views = views;
    }

    Answer show(ConsoleRequest r) throws Exception {
        Optional<String> filter = r.param("status");
        Optional<CampaignStatus> status = filter.flatMap(CampaignsPage::status);
        if (filter.isPresent() && status.isEmpty()) {
            return Answer.error(400, "status must be one of " + String.join(", ", statuses()) + ".");
        }
        List<Map<String, Object>> rows = services.api().reports().all().stream()
                .filter(rep -> status.map(st -> rep.campaign().status() == st).orElse(true))
                .map(Figures::summary).toList();
        return Answer.ok(views.render("campaigns", r.session(), Map.of("campaigns", rows, "statuses", statuses(),
                "selected", status.map(CampaignStatus::dbValue).orElse(""))));
    }

    private static Optional<CampaignStatus> status(String text) {
        return Arrays.stream(CampaignStatus.values()).filter(s -> s.dbValue().equals(text)).findFirst();
    }

    private static List<String> statuses() {
        return Arrays.stream(CampaignStatus.values()).map(CampaignStatus::dbValue).toList();
    }
}
