package dev.mailrun.campaign.store.violation;

import dev.mailrun.campaign.report.CampaignReports;

/**
 * Breaks the table rule on purpose, for CampaignLayersTest: a table-side class that uses the
 * campaign API above it. It lives in the test sources, so the rule checked on the main classes
 * never sees it.
 */
public final class TableReachingIntoReports {

    private TableReachingIntoReports() {
    }

    public static Class<?> reports() {
        return CampaignReports.class;
    }
}
