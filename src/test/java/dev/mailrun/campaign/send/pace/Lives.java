package dev.mailrun.campaign.send.pace;

import dev.mailrun.campaign.store.RelayShareTable.Holders;
import dev.mailrun.campaign.store.RelayShareTable.Live;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** Live holders of a share as a renewal finds them, for tests: the others are "h0", "h1", …, the first {@code rank} ranked below. */
final class Lives {

    private Lives() {
    }

    static Live of(int holders, int rank) {
        return of(holders, rank, Map.of());
    }

    /** @param wants what some of the others ("h0", …) can still use */
    static Live of(int holders, int rank, Map<String, Double> wants) {
        Set<String> others = new HashSet<>();
        Set<String> below = new HashSet<>();
        for (int i = 0; i < holders - 1; i++) {
            others.add("h" + i);
            if (i < rank) {
                below.add("h" + i);
            }
        }
        return new Live(new Holders(holders, rank), others, below, wants);
    }
}
