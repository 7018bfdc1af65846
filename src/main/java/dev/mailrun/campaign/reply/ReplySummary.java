package dev.mailrun.campaign.reply;

/**
 * What one run of the replies mailbox did; every message read is counted once, in one of the others.
 *
 * @param replies   people's replies that were the first of their recipient: recorded now
 * @param repeated  people's replies traced to a send whose recipient had replied already (or whose
 *                  recipient row is gone): nothing recorded
 * @param automatic automatic answers (out of office, responders): not replies
 * @param reports   delivery and feedback reports: the bounce mailbox's, not replies
 * @param unmatched messages answering nothing of ours (no signed Message-ID of a campaign's send)
 */
record ReplySummary(int read, int replies, int repeated, int automatic, int reports, int unmatched) {}
