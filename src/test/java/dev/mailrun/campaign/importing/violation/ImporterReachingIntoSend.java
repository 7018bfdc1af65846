package dev.mailrun.campaign.importing.violation;

import dev.mailrun.campaign.send.scope.SendSettings;

/**
 * Breaks the campaign layer rule on purpose, for CampaignLayersTest: an importer-side class that
 * uses the send package. It lives in the test sources, so the rule checked on the main classes
 * never sees it.
 */
public final class ImporterReachingIntoSend {

    private ImporterReachingIntoSend() {
    }

    public static int batchMax(SendSettings settings) {
        return settings.batchMax();
    }
}
