package dev.mailrun.campaign.send.deliver;

import dev.mailrun.campaign.send.policy.DailyQuota;
import dev.mailrun.campaign.send.route.RelayHealth;
import dev.mailrun.campaign.send.route.WeightedSplit;
import dev.mailrun.campaign.store.ClaimedRecipient;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Deals one batch among the lanes of a route, every recipient to at most one relay.
 *
 * <ol>
 *   <li>A recipient a daily cap reserved for a relay at the claim ({@link DailyQuota}) goes to that
 *       relay while it is up, or as its probe when its back-off has passed; otherwise it goes back to
 *       the queue untried, its slot back to that relay.</li>
 *   <li>Of the rest, each relay whose probe is due gets one recipient first; the others are dealt by
 *       the relays' current weights ({@link WeightedSplit}). With no relay up they all go back.</li>
 * </ol>
 */
final class BatchDeal {

    /**
     * @param parts each lane's recipients, in route order
     * @param probe whether each lane's part is that relay's probe
     * @param back  recipients that go back to the queue untried
     */
    record Dealt(List<List<ClaimedRecipient>> parts, boolean[] probe, List<ClaimedRecipient> back) {

        int active() {
            return (int) parts.stream().filter(p -> !p.isEmpty()).count();
        }
    }

    private final Lanes lanes;
    private final RelayHealth health;
    private final DailyQuota quota;
    private final WeightedSplit split;

    BatchDeal(Lanes lanes, RelayHealth health, DailyQuota quota) {
        this.lanes = lanes;
        this.health = health;
        this.quota = quota;
        this.split = new WeightedSplit(lanes.size());
    }

    /**
     * @param probes  relays whose probe this run won and is due
     * @param weights the relays' weights now, 0 for those that take nothing
     */
    Dealt deal(List<ClaimedRecipient> recipients, List<String> probes, int[] weights) {
        List<List<ClaimedRecipient>> parts = new ArrayList<>();
        for (int i = 0; i < lanes.size(); i++) {
            parts.add(new ArrayList<>());
        }
        boolean[] probe = new boolean[lanes.size()];
        List<ClaimedRecipient> unreserved = new ArrayList<>();
        List<ClaimedRecipient> back = new ArrayList<>();
        for (ClaimedRecipient r : recipients) {
            Optional<String> reserved = quota.relayOf(r.id());
            if (reserved.isEmpty()) {
                unreserved.add(r);
                continue;
            }
            int i = lanes.indexOf(reserved.get());
            if (health.up(reserved.get())) {
                parts.get(i).add(r);
            } else if (probes.contains(reserved.get()) && !probe[i]) {
                probe[i] = true;
                parts.get(i).add(r);
            } else {
                // Counted for a relay that went down since the claim: its slot goes back to it.
                back.add(r);
            }
        }
        int next = 0;
        for (String relay : probes) {
            int i = lanes.indexOf(relay);
            if (!probe[i] && next < unreserved.size()) {
                probe[i] = true;
                parts.get(i).add(unreserved.get(next++));
            }
        }
        List<ClaimedRecipient> rest = unreserved.subList(next, unreserved.size());
        if (Arrays.stream(weights).noneMatch(w -> w > 0)) {
            back.addAll(rest);
        } else {
            for (ClaimedRecipient r : rest) {
                parts.get(split.next(weights)).add(r);
            }
        }
        return new Dealt(parts, probe, back);
    }
}
