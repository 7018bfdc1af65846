package dev.mailrun.campaign.importing;

import dev.mailrun.campaign.attach.RecipientFiles;

/**
 * The recipients' own files as one import checks them: under the configured directory, and within
 * what the campaign's own files ({@code campaignBytes}) leave of the message limit.
 */
record RowFiles(RecipientFiles files, long campaignBytes) {

    RecipientFiles.Checked check(String path) throws RecipientFiles.FileProblem {
        return files.check(path, campaignBytes);
    }
}
