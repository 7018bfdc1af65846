package dev.mailrun.bench;

import dev.mailrun.campaign.UnsubscribeLinks;
import java.util.Optional;

/** Fixed-shape unsubscribe links; signing them is not what these benchmarks measure. */
final class BenchLinks implements UnsubscribeLinks {

    @Override
    public String url(long campaignId, long recipientId, String email) {
        return "https://unsubscribe.sender.example/u/c" + campaignId + "r" + recipientId;
    }

    @Override
    public String mailto(long campaignId, long recipientId, String email) {
        return "mailto:unsubscribe@sender.example?subject=c" + campaignId + ".r" + recipientId;
    }

    @Override
    public Optional<String> envelopeFrom(long campaignId, long recipientId, String email) {
        return Optional.empty();
    }
}
