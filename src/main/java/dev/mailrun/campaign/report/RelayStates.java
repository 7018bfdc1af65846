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
 * The relays' down marks as status reads them. A mark made under another configuration of the relay
 * (its host, port, TLS mode or user changed since: {@link RelayFingerprint}) no longer holds — the
 * next run through the relay drops it — so status shows that relay up, and never a reason that
 * names its old address.
 */
final class RelayStates {

    /** The configuration is not known here: every mark holds as stored. */
    static final RelayStates AS_STORED = new RelayStates(Map.of());

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

    /** Every relay of {@code names} with its state: up when it has no mark or one made under another configuration. */
    Map<String, State> read(Connection c, Collection<String> names) throws SQLException {
        Map<String, State> states = new HashMap<>(table.read(c, names));
        states.replaceAll((name, st) -> markedElsewhere(name, st) ? State.up(name) : st);
        return states;
    }

    private boolean markedElsewhere(String relay, State st) {
        String now = fingerprints.get(relay);
        return now != null && st.downUntil().isPresent() && !st.config().equals(Optional.of(now));
    }
}
