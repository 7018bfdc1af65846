package dev.mailrun.campaign.send.pace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.model.DomainGroup;
import dev.mailrun.campaign.model.DomainGroups;
import dev.mailrun.campaign.store.AdaptedRateTable;
import dev.mailrun.campaign.store.ClaimedRecipient;
import dev.mailrun.campaign.store.RelayShareTable.Holders;
import dev.mailrun.campaign.store.recipient.RecipientClaims.Claim;
import dev.mailrun.campaign.store.recipient.RecipientClaims.PacedClaim;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How a run's claims share a batch between a capped domain group and the rest of the list. */
class DomainPacerTest {

    private static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");

    private DomainPacer pacer(double cap) {
        DomainPacer pacer = new DomainPacer(new DomainGroups(List.of(
                new DomainGroup("gmail", List.of("gmail.com", "googlemail.com"), cap))), new RateAdapter(new AdaptedRateTable()));
        pacer.update(Map.of("domain:gmail", new Holders(1, 0)), 0);
        return pacer;
    }

    @Test
    void a_capped_group_gets_its_share_of_the_batchs_time_and_the_other_domains_the_rest() {
        DomainPacer pacer = pacer(5);
        // 100 at 50/s last 2 s: 10 for gmail at 5/s and a tenth ahead, 89 for the others.
        DomainPacer.Plan plan = pacer.plan(100, 50, NOW);
        assertThat(plan.quotas()).singleElement().satisfies(q -> assertThat(q.limit()).isEqualTo(11));
        assertThat(plan.others()).isEqualTo(89);
        assertThat(plan.paced()).containsExactly("gmail.com", "googlemail.com");
        assertThat(pacer.effectiveRate(50)).isEqualTo(50);
    }

    @Test
    void once_the_other_domains_ran_dry_batches_are_sized_to_the_cap() {
        DomainPacer pacer = pacer(5);
        DomainPacer.Plan plan = pacer.plan(100, 50, NOW);
        pacer.claimed(plan, new PacedClaim(new Claim(List.of(), 0), 30, 30, List.of(11)), NOW, false);
        assertThat(pacer.effectiveRate(50)).as("the rate the timebox predicts with").isEqualTo(5);
        DomainPacer.Plan next = pacer.plan(25, 50, NOW);
        assertThat(next.others()).as("the claim found a few: was it the last of them? asked for one").isEqualTo(1);
        assertThat(next.quotas().get(0).limit()).as("25 at 5/s take 5 s: gmail, but for the one asked").isEqualTo(24);
        pacer.claimed(next, new PacedClaim(new Claim(List.of(), 0), 0, 0, List.of(24)), NOW, false);
        DomainPacer.Plan after = pacer.plan(25, 50, NOW);
        assertThat(after.others()).as("none: the others are left alone for a while").isZero();
        assertThat(after.quotas().get(0).limit()).isEqualTo(25);
        DomainPacer.Plan later = pacer.plan(25, 50, NOW.plus(DomainPacer.RECHECK));
        assertThat(later.others()).as("a while later the others are asked for one again").isEqualTo(1);
        assertThat(later.quotas().get(0).limit()).isEqualTo(24);
    }

    @Test
    void a_claim_that_found_a_few_others_is_followed_by_one_asking_for_one_until_one_finds_none() {
        DomainPacer pacer = pacer(5);
        DomainPacer.Plan plan = pacer.plan(100, 50, NOW);
        pacer.claimed(plan, new PacedClaim(new Claim(List.of(), 0), 12, 12, List.of(11)), NOW, false);
        DomainPacer.Plan probe = pacer.plan(10, 50, NOW);
        assertThat(probe.others()).as("10 at 5/s are all gmail's: one of them makes room for one other").isEqualTo(1);
        pacer.claimed(probe, new PacedClaim(new Claim(List.of(), 0), 1, 13, List.of(9)), NOW, false);
        assertThat(pacer.plan(100, 50, NOW).others()).as("one came back: the others are asked in full again (gmail takes back its one)")
                .isEqualTo(89);

        DomainPacer emptied = pacer(5);
        DomainPacer.Plan first = emptied.plan(100, 50, NOW);
        emptied.claimed(first, new PacedClaim(new Claim(List.of(), 0), 12, 12, List.of(11)), NOW, false);
        DomainPacer.Plan none = emptied.plan(10, 50, NOW);
        emptied.claimed(none, new PacedClaim(new Claim(List.of(), 0), 0, 0, List.of(9)), NOW, false);
        assertThat(emptied.onlyPaced()).as("the run gives up the rest of its share now, not a pause later").hasValue(5);
    }

    @Test
    void the_batch_holding_the_last_of_the_other_domains_is_predicted_at_the_runs_rate_and_those_after_at_the_caps() {
        DomainPacer pacer = pacer(5);
        DomainPacer.Plan plan = pacer.plan(100, 50, NOW);
        List<ClaimedRecipient> found = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            found.add(new ClaimedRecipient(i, "r" + i + "@other.example", "", null, 0));
        }
        found.add(new ClaimedRecipient(99, "a@gmail.com", "", null, 0));
        pacer.claimed(plan, new PacedClaim(new Claim(found, 0), 12, 12, List.of(plan.quotas().get(0).limit())), NOW, false);
        assertThat(pacer.effectiveRate(50)).as("the claim made ahead holds 12 others: a budget at 5/s would hand them back")
                .isEqualTo(50);
        pacer.interleave(found);
        assertThat(pacer.effectiveRate(50)).as("taken into the batch being sent: what follows is gmail's").isEqualTo(5);
    }

    @Test
    void no_other_domains_found_while_some_go_back_to_the_queue_is_not_none_left() {
        DomainPacer pacer = pacer(5);
        DomainPacer.Plan plan = pacer.plan(100, 50, NOW);
        pacer.claimed(plan, new PacedClaim(new Claim(List.of(), 0), 0, 0, List.of(10)), NOW, true);
        assertThat(pacer.onlyPaced()).as("a hand-back not yet released was out of the claim's sight").isEmpty();
        DomainPacer.Plan probe = pacer.plan(10, 50, NOW);
        assertThat(probe.others()).as("so the next claim asks again").isEqualTo(1);
        pacer.claimed(probe, new PacedClaim(new Claim(List.of(), 0), 0, 0, List.of(9)), NOW, false);
        assertThat(pacer.onlyPaced()).hasValue(5);
    }

    @Test
    void fractions_are_taken_ahead_then_owed_and_a_last_chance_asks_every_group_for_one() {
        DomainPacer pacer = pacer(5);
        // 4 at 50/s last 80 ms: 0.4 of a gmail message, 0.44 with the tenth ahead. The first claim
        // takes it whole and the next owes it (0.4 - 1 + 0.4 = -0.2, and -0.16 with the lead);
        // after five claims of 0.4 the group is one message ahead: what it took ahead stays owed.
        List<Integer> taken = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            taken.add(pacer.plan(4, 50, NOW).quotas().get(0).limit());
        }
        assertThat(taken).containsExactly(1, 0, 1, 0, 1);
        List<Integer> more = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            more.add(pacer.plan(4, 50, NOW).quotas().get(0).limit());
        }
        assertThat(more.stream().mapToInt(Integer::intValue).sum()).as("25 claims of 0.4: 10, and at most a message ahead")
                .isBetween(10 - 3, 11 - 3);
        assertThat(pacer.plan(4, 50, NOW, true).quotas().get(0).limit()).isEqualTo(1);
    }

    @Test
    void an_uncapped_group_is_not_paced_and_claims_go_the_usual_way() {
        DomainPacer pacer = pacer(0);
        assertThat(pacer.active()).isFalse();
        assertThat(pacer.limiterFor("ann@gmail.com")).isEmpty();
    }

    @Test
    void a_batchs_capped_recipients_are_spread_evenly_among_the_others() {
        DomainPacer pacer = pacer(5);
        List<ClaimedRecipient> batch = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            batch.add(new ClaimedRecipient(i, "r" + i + "@other.example", "", null, 0));
        }
        batch.add(new ClaimedRecipient(8, "a@gmail.com", "", null, 0));
        batch.add(new ClaimedRecipient(9, "b@googlemail.com", "", null, 0));
        List<String> order = pacer.interleave(batch).stream().map(ClaimedRecipient::email).toList();
        assertThat(order).hasSize(10);
        assertThat(order.indexOf("a@gmail.com")).as("the first permit is due at the batch's start").isZero();
        assertThat(order.indexOf("b@googlemail.com")).isEqualTo(5);
        assertThat(pacer.limiterFor("b@googlemail.com")).hasValueSatisfying(l -> assertThat(l.rate()).isEqualTo(5));
    }

    @Test
    void a_run_can_use_only_its_groups_shares_once_a_claim_found_no_others_and_every_other_claimed_has_its_result() {
        DomainPacer pacer = pacer(5);
        DomainPacer.Plan plan = pacer.plan(100, 50, NOW);
        List<ClaimedRecipient> found = List.of(new ClaimedRecipient(1, "r1@other.example", "", null, 0),
                new ClaimedRecipient(2, "a@gmail.com", "", null, 0));
        pacer.claimed(plan, new PacedClaim(new Claim(found, 0), 1, 1, List.of(1)), NOW, false);
        DomainPacer.Plan none = pacer.plan(10, 50, NOW);
        pacer.claimed(none, new PacedClaim(new Claim(List.of(), 0), 0, 0, List.of(9)), NOW, false);
        assertThat(pacer.onlyPaced()).as("a claim found no others, but r1 has no result yet").isEmpty();
        pacer.settled("a@gmail.com", false);
        assertThat(pacer.onlyPaced()).as("gmail's result says nothing of the others").isEmpty();
        pacer.settled("r1@other.example", false);
        assertThat(pacer.onlyPaced()).hasValue(5);

        DomainPacer handedBack = pacer(5);
        DomainPacer.Plan first = handedBack.plan(100, 50, NOW);
        handedBack.claimed(first, new PacedClaim(new Claim(found, 0), 1, 1, List.of(1)), NOW, false);
        DomainPacer.Plan after = handedBack.plan(10, 50, NOW);
        handedBack.claimed(after, new PacedClaim(new Claim(List.of(), 0), 0, 0, List.of(9)), NOW, false);
        handedBack.settled("r1@other.example", true);
        assertThat(handedBack.onlyPaced()).as("r1 goes back to the queue unsent: there is one left").isEmpty();
    }
}
