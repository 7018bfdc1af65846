package dev.mailrun.campaign.send.pace;

import dev.mailrun.campaign.model.DomainGroup;
import dev.mailrun.campaign.model.DomainGroups;
import dev.mailrun.campaign.store.ClaimedRecipient;
import dev.mailrun.campaign.store.RelayShareTable.Holders;
import dev.mailrun.campaign.store.recipient.RecipientClaims.DomainQuota;
import dev.mailrun.campaign.store.recipient.RecipientClaims.PacedClaim;
import dev.mailrun.mail.smtp.SendRateLimiter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * Paces a run's recipients by domain group ({@link DomainGroup}). A group is paced while it has a
 * cap or an adapted rate ({@link RateAdapter}); its rate is held in total across workers by the
 * same shares as the relay's ({@code relay_share}, one row per group and run, dealt out by
 * {@link RelayRate#shareOf}).
 *
 * <ol>
 *   <li>Claims: each batch takes from a paced group only what its share allows in the time the
 *       batch is expected to take (fractions carry over to the next claim), and fills the rest from
 *       the other domains, so a capped domain never holds back the rest of the list.</li>
 *   <li>Sending: the group's recipients are spread evenly through the batch, and each waits for
 *       its group's own limiter (a {@link SendRateLimiter}: at most ⌈share⌉ in any second) before
 *       the relay's.</li>
 *   <li>Prediction: once the other domains ran dry, only the paced groups are left, and the rate
 *       the timebox predicts with is the sum of their shares ({@link #effectiveRate}), so batches
 *       are sized to what the caps allow.</li>
 * </ol>
 *
 * <p>Over 250 lines as one piece: the claim-side plan, the send-side limiters and the prediction all
 * work from the same per-group shares and the fractions carried from claim to claim. What the run
 * knows of the rest of its list — the other domains — is {@link UnpacedPart}'s.
 */
public final class DomainPacer {

    /** How long a part of the queue found empty is left alone before a claim looks again. */
    static final Duration RECHECK = Duration.ofSeconds(10);

    /** How far ahead of its share of a batch's time a paced group is claimed (see {@link #plan}). */
    static final double LEAD = 0.1;

    /** One group's pace in this run. */
    private static final class Pace {
        final DomainGroup group;
        final SendRateLimiter limiter = new SendRateLimiter(0);
        Holders holders = new Holders(1, 0);
        double share;
        /** A larger share a renewal found, not applied yet; 0: none. */
        double rising;
        /** When (nanoTime) {@link #rising} was found. */
        long risingSince;
        double credit;
        Instant dryUntil = Instant.MIN;

        Pace(DomainGroup group) {
            this.group = group;
        }
    }

    /** What one claim should take. */
    public record Plan(int others, long othersFrom, List<String> paced, List<String> groups, List<DomainQuota> quotas) {}

    private final RateAdapter adapter;
    private final Map<String, Pace> byName = new LinkedHashMap<>();
    private final Map<String, Pace> byDomain = new HashMap<>();
    /** The last second of the runs before this one, per group key; null until read. */
    private Map<String, long[]> tails;
    private final UnpacedPart others = new UnpacedPart();
    /** When (nanoTime) the last renewal read the groups' holders. */
    private long lastRenewal;

    DomainPacer(DomainGroups groups, RateAdapter adapter) {
        this.adapter = adapter;
        for (DomainGroup g : groups.groups()) {
            Pace p = new Pace(g);
            byName.put(g.name(), p);
            g.domains().forEach(d -> byDomain.put(d, p));
        }
    }

    /** The relay_share names of every group: every sending run holds a share of each. */
    List<String> shareNames() {
        return byName.values().stream().map(p -> p.group.key()).toList();
    }

    /**
     * What other runs sent to each group in the last second and this run must count (group key →
     * ages in nanoseconds): the tails of the runs before it and the handovers of the runs it joined.
     * Every paced group starts counting from them, instead of assuming a full second was sent; a
     * group paced later in the run, alone on it, starts from them too.
     *
     * @return the keys of the groups whose windows could not hold every send counted (more than
     *         ⌈share⌉ within the last second: each holds the newest)
     */
    synchronized Set<String> startAfter(Map<String, long[]> agesByGroup) {
        tails = Map.copyOf(agesByGroup);
        Set<String> overflowing = new HashSet<>();
        for (Pace p : byName.values()) {
            if (p.share > 0 && !p.limiter.startAfter(tails.getOrDefault(p.group.key(), new long[0]))) {
                overflowing.add(p.group.key());
            }
        }
        return overflowing;
    }

    /** Nothing is known of what other runs sent to the groups: each paced group's first message waits a second. */
    synchronized void startFull() {
        byName.values().stream().filter(p -> p.share > 0).forEach(p -> p.limiter.startFull());
    }

    /** Each paced group's sends in the last second (group key → ages in nanoseconds), for the next run. */
    synchronized Map<String, long[]> recentAges() {
        Map<String, long[]> ages = new LinkedHashMap<>();
        for (Pace p : byName.values()) {
            if (p.share > 0) {
                ages.put(p.group.key(), p.limiter.recentAges());
            }
        }
        return ages;
    }

    /**
     * After a renewal: each group's share among its live holders, of its cap or adapted rate.
     *
     * @return per group key, the ages (nanoseconds) of this run's sends to it in the last second
     *         that a lowered share no longer holds; only groups with some
     */
    synchronized Map<String, long[]> update(Map<String, Holders> live, long nanos) {
        lastRenewal = nanos;
        Map<String, long[]> beyond = new HashMap<>();
        for (Pace p : byName.values()) {
            Holders before = p.holders;
            p.holders = live.getOrDefault(p.group.key(), p.holders);
            long[] ages = apply(p, p.holders.holders() > before.holders(), nanos);
            if (ages.length > 0) {
                beyond.put(p.group.key(), ages);
            }
        }
        return beyond;
    }

    /** After a local halving of {@code groupKey}: the new rate applies before the next renewal. */
    synchronized void refresh(String groupKey) {
        byName.values().stream().filter(p -> p.group.key().equals(groupKey)).forEach(p -> apply(p, false, lastRenewal));
    }

    /**
     * @param joined another holder joined the group: the sends its share no longer holds are handed over, spread
     * @param nanos  when the holders were read (nanoTime)
     */
    private long[] apply(Pace p, boolean joined, long nanos) {
        double total = adapter.rate(p.group.key()).orElse(p.group.rate());
        double share = total > 0 ? RelayRate.shareOf(total, p.holders, 0) : 0;
        if (p.share > 0 && share > p.share) {
            // A larger share (a holder left, a rate stepped up) applies a second after a renewal
            // found it (RelayRate.RISE_AFTER): the holder that left may have sent its share within
            // the last second, and taking it over at once would let the group's second hold both.
            if (p.rising != share) {
                p.rising = share;
                p.risingSince = nanos;
                return new long[0];
            }
            if (nanos - p.risingSince < RelayRate.RISE_AFTER.toNanos()) {
                return new long[0];
            }
        }
        p.rising = 0;
        boolean starting = p.share == 0 && share > 0;
        p.share = share;
        long[] beyond = p.limiter.rate() == share ? new long[0]
                : joined ? p.limiter.handOverTo(share) : p.limiter.changeRate(share);
        if (starting) {
            if (tails != null && p.holders.holders() == 1) {
                // Alone on the group: what the run before this one sent to it in its last second
                // counts here, and the group sends from this run's first second.
                p.limiter.startAfter(tails.getOrDefault(p.group.key(), new long[0]));
            } else {
                // Another run holds the group (it sent at its old, larger share until it counted
                // this one), or nothing is known of the run before: the group's first message here
                // waits a second. Only the group waits; the run's other recipients go at once.
                p.limiter.startFull();
            }
        }
        return beyond;
    }

    /** True while some group is paced: claims go through {@link #plan}. */
    public synchronized boolean active() {
        return byName.values().stream().anyMatch(p -> p.share > 0);
    }

    /** The group key of a recipient's domain, if it is in a group. */
    Optional<String> groupKeyOf(String email) {
        return Optional.ofNullable(byDomain.get(domainOf(email))).map(p -> p.group.key());
    }

    private boolean paced(String email) {
        Pace p = byDomain.get(domainOf(email));
        return p != null && p.share > 0;
    }

    /** The limiter a recipient's message waits for besides the relay's; empty when its domain is not paced. */
    public synchronized Optional<SendRateLimiter> limiterFor(String email) {
        Pace p = byDomain.get(domainOf(email));
        return p == null || p.share <= 0 ? Optional.empty() : Optional.of(p.limiter);
    }

    /**
     * What the next claim of up to {@code max} should take, when the run sends at {@code runRate}
     * (0: no limit). A batch of {@code max} is expected to last {@code max / effectiveRate}: each
     * paced group may fill its share of that time, the other domains the rest.
     */
    synchronized Plan plan(int max, double runRate, Instant now) {
        return plan(max, runRate, now, false);
    }

    /**
     * @param lastChance the claim before found nothing: every paced group is asked for at least one
     *                   recipient and no part is left alone for having run dry, so an empty claim
     *                   means the queue really is empty (it ends the run)
     */
    public synchronized Plan plan(int max, double runRate, Instant now, boolean lastChance) {
        double rate = effectiveRate(runRate);
        double seconds = rate > 0 ? max / rate : 1;
        List<String> paced = new ArrayList<>();
        List<String> groups = new ArrayList<>();
        List<DomainQuota> quotas = new ArrayList<>();
        int left = max;
        for (Pace p : byName.values()) {
            if (p.share <= 0) {
                continue;
            }
            paced.addAll(p.group.domains());
            int take = 0;
            if (lastChance || !now.isBefore(p.dryUntil)) {
                double allowed = p.credit + p.share * seconds;
                // Ahead of its share rather than behind: a tenth more than the batch's time holds,
                // rounded up, so that its messages reach the limiter before their permits even when
                // the batch goes slower than predicted (each permit that finds no message waiting is
                // lost, and the pace's window moves on from the late one). What was taken ahead is
                // owed by the next claim.
                take = (int) Math.min(left, Math.max(0, Math.ceil(allowed + LEAD * p.share * seconds - 1e-9)));
                if (take == 0 && left > 0 && (lastChance || others.dry(now, false))) {
                    // Only paced groups are left: never claim nothing while they have recipients
                    // (an empty claim ends the run); the group's limiter holds the message to its pace.
                    take = 1;
                }
                // What was taken early is owed by the next claim, and a fraction left over (a claim
                // limited by the batch) kept, never a whole message.
                p.credit = Math.min(0.999, allowed - take);
            }
            left -= take;
            groups.add(p.group.name());
            quotas.add(new DomainQuota(p.group.domains(), take));
        }
        int unpaced = others.dry(now, lastChance) ? 0 : left;
        if (unpaced == 0 && others.probe(now, lastChance)) {
            int last = quotas.size() - 1;
            if (left > 0) {
                unpaced = 1;
            } else if (last >= 0 && quotas.get(last).limit() > 0) {
                // Sized to the caps, the paced groups fill the whole batch: one of them makes room.
                DomainQuota q = quotas.get(last);
                quotas.set(last, new DomainQuota(q.domains(), q.limit() - 1));
                byName.get(groups.get(last)).credit += 1;
                unpaced = 1;
            }
        }
        return new Plan(unpaced, others.from(), paced, groups, quotas);
    }

    /**
     * What the claim of {@code plan} found: the parts that ran dry are left alone for {@link #RECHECK}.
     *
     * @param releasing some of the run's recipients were on their way back to the queue, unseen by
     *                  the claim: finding no other domains then does not mean none are left
     */
    public synchronized void claimed(Plan plan, PacedClaim found, Instant now, boolean releasing) {
        others.claimed((int) found.claim().recipients().stream().filter(r -> !paced(r.email())).count());
        if (plan.others() > 0) {
            others.asked(plan.others(), found.otherFound(), found.lastOtherId(), now, RECHECK, releasing);
        }
        for (int i = 0; i < plan.groups().size(); i++) {
            Pace p = byName.get(plan.groups().get(i));
            int asked = plan.quotas().get(i).limit();
            if (asked > 0) {
                p.dryUntil = found.quotaFound().get(i) < asked ? now.plus(RECHECK) : Instant.MIN;
            }
        }
    }

    /**
     * The rate a batch is expected to go at: the run's, unless only paced groups are left — then the
     * sum of their shares (never above the run's). 0: no limit.
     */
    synchronized double effectiveRate(double runRate) {
        if (!others.ranDry() || others.held()) {
            // A claim made ahead still holds other domains (the last of them, found too few): the
            // batch that takes it goes at the run's rate, and a budget sized to the caps would hand
            // them back to the queue, out of reach of the claims that follow.
            return runRate;
        }
        double paced = 0;
        for (Pace p : byName.values()) {
            if (p.share > 0 && p.dryUntil == Instant.MIN) {
                paced += p.share;
            }
        }
        if (paced <= 0) {
            return runRate;
        }
        return runRate > 0 ? Math.min(runRate, paced) : paced;
    }

    /**
     * The paced groups' shares together once only they are left to send to (a claim found none of
     * the other domains, and every one the run claimed has its result): all this run can still use
     * of the relay. Empty while other domains have recipients.
     */
    synchronized OptionalDouble onlyPaced() {
        // A claim finding too few others is not enough: the run may still hold some of them, and the
        // last few may be on their way back to the queue. Only once a claim found none (none were on
        // their way back) and none is left without a result are the others used up.
        if (!others.usedUp()) {
            return OptionalDouble.empty();
        }
        double paced = byName.values().stream().filter(p -> p.share > 0).mapToDouble(p -> p.share).sum();
        return paced > 0 ? OptionalDouble.of(paced) : OptionalDouble.empty();
    }

    /**
     * A recipient claimed by this run has its result: once the last of the other domains has one, the
     * run holds none of them any more.
     *
     * @param back it goes back to the queue unsent (handed back, not attempted): a claim may find it
     *             again, so a claim that found none before no longer says that none are left
     */
    public synchronized void settled(String email, boolean back) {
        if (!paced(email)) {
            others.settled(back);
        }
    }

    /** The paced groups with their shares now (messages/s for this run), for status and the run summary. */
    synchronized Map<String, Double> shares() {
        Map<String, Double> shares = new LinkedHashMap<>();
        byName.values().stream().filter(p -> p.share > 0).forEach(p -> shares.put(p.group.name(), p.share));
        return shares;
    }

    /**
     * The batch in sending order: recipients of paced domains spread evenly among the others, so
     * that they reach their limiter one by one rather than holding every connection at once.
     */
    public List<ClaimedRecipient> interleave(List<ClaimedRecipient> batch) {
        List<ClaimedRecipient> paced = new ArrayList<>();
        List<ClaimedRecipient> unpaced = new ArrayList<>();
        for (ClaimedRecipient r : batch) {
            (limiterFor(r.email()).isPresent() ? paced : unpaced).add(r);
        }
        synchronized (this) {
            others.taken(unpaced.size());
        }
        if (paced.isEmpty() || unpaced.isEmpty()) {
            return batch;
        }
        List<ClaimedRecipient> ordered = new ArrayList<>(batch.size());
        int n = batch.size();
        int p = 0;
        int o = 0;
        for (int i = 0; i < n; i++) {
            // The j-th paced recipient goes at position ⌊j·n / |paced|⌋: reached when its limiter's
            // j-th permit of the batch is due, not half a spacing after it (the group's window
            // moves on from when a message goes, so a late one costs the group that much).
            boolean pacedHere = p < paced.size() && i >= (int) Math.floor((double) p * n / paced.size());
            if ((pacedHere || o >= unpaced.size()) && p < paced.size()) {
                ordered.add(paced.get(p++));
            } else {
                ordered.add(unpaced.get(o++));
            }
        }
        return ordered;
    }

    static String domainOf(String email) {
        return email.substring(email.lastIndexOf('@') + 1).toLowerCase(Locale.ROOT);
    }
}
