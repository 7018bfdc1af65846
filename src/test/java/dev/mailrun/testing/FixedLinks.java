package dev.mailrun.testing;

import dev.mailrun.campaign.send.deliver.UnsubscribeLinks;
import java.util.Optional;

/**
 * Deterministic unsubscribe links for sending tests and benchmarks; the signed production links
 * are tested on their own (UnsubscribeTokensTest, ReturnPathsTest).
 */
public final class FixedLinks implements UnsubscribeLinks {

    @Override
    public String url(long campaignId, long recipientId, String email) {
        return "https://unsubscribe.sender.example/u/c" + campaignId + "r" + recipientId;
    }

    @Override
    public String webVersion(long campaignId, long recipientId) {
        return "https://unsubscribe.sender.example/w/c" + campaignId + "r" + recipientId;
    }

    @Override
    public Optional<String> mailto(String fromDomain, long campaignId, long recipientId, String email) {
        return Optional.of("mailto:unsubscribe@" + fromDomain + "?subject=c" + campaignId + ".r" + recipientId);
    }

    @Override
    public Optional<String> envelopeFrom(long campaignId, long recipientId, String email) {
        return Optional.empty();
    }
}
