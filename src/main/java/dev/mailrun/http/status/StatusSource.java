package dev.mailrun.http.status;

import dev.mailrun.campaign.report.CampaignReport;
import java.util.List;

/** Where the status routes read the campaigns from, at each request. */
@FunctionalInterface
public interface StatusSource {

    List<CampaignReport> reports() throws Exception;
}
