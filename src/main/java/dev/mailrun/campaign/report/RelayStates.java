package dev.mailrun.campaign.report;

import dev.mailrun.campaign.send.route.RelayFingerprint;
import dev.mailrun.campaign.send.route.Relays;
import dev.mailrun.campaign.store.RelayStateTable.State;
import dev.mailrun.campaign.store.RelayStateTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The relays' down marks as status reads them: the mark made under the configuration status runs
 * with ({@link RelayFingerprint}). A mark made under another configuration of the relay (re-pointed
 * since, or another worker's different settings of the same name) is not this configuration's, so
 * status shows the relay up here, and never a reason that names another address; the workers that
 * disagree on a relay's settings are named apart ({@link dev.mailrun.campaign.send.route.RelayConfigs}).
 */
final class RelayStates {

    private final Map<String, String> fingerprints;
    private final RelayStateTable table = new RelayStateTable();

    private RelayStates(Map<String, String> fingerprints) {
        this.fingerprints = Map.copyOf(fingerprints);
    }

    /** Marks judged against the configuration of {@code relays}. */
    static RelayStates of(Relays relays) {
        Map<String, String> fingerprints = new HashMap<>();
        relays.byName().forEach((name, relay) -> fingerprints.put(name, RelayFingerprint.of(relay.smtp())));
        return new RelayStates(fingerprints);
    }

    /**
     * Every relay of {@code names} with its state: the row of its configuration here; for a relay not
     * configured here, the row whose mark lasts longest.
     */
    Map<String, State> read(Connection c, Collection<String> names) throws SQLException {
        Map<String, State> states = new HashMap<>();
        names.forEach(n -> states.put(n, State.up(n)));
        for (State st : table.readAll(c, names)) {
            String mine = fingerprints.get(st.relay());
            boolean applies = mine != null ? st.config().equals(Optional.of(mine)) : lastsLonger(st, states.get(st.relay()));
            if (applies) {
                states.put(st.relay(), st);
            }
        }
        return states;
    }

    private static boolean lastsLonger(State st, State than) {
        return st.downUntil().isPresent()
                && (than.downUntil().isEmpty() || st.downUntil().get().isAfter(than.downUntil().get()));
    }
}
