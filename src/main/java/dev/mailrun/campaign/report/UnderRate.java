package dev.mailrun.campaign.report;

import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.campaign.store.RelayConnectionTable;
import dev.mailrun.campaign.store.RelayConnectionTable.RelayPools;
import dev.mailrun.campaign.store.RunSecondTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A running campaign that sent under {@link #SHARE} of its route's rate over the whole last minute
 * while recipients were due, with no hold named for it: status never shows "-" then, but names what
 * held it back, the cause that cost the most of the minute first:
 * <ol>
 *   <li>connections: a relay's open connections, at its measured time per message, carry less than
 *       its rate while more are allowed ({@code relay_connections}: open, needed, ceiling);</li>
 *   <li>round trip: they carry less with as many open as allowed;</li>
 *   <li>run boundaries: the time between one run's last message and the next one's first;</li>
 *   <li>database: the time the runs' sending waited for a claim or for in-flight marks;</li>
 *   <li>CPU of the worker: its load at or over its cores, or 90% of the CPU busy. The CPU has no
 *       share of its own to measure: it is given what the others leave unexplained.</li>
 * </ol>
 * The last three come from the runs' seconds ({@code campaign_run_second}, {@link RunMinute}). A
 * cause is named when it accounts for at least {@link #NAMED} of what the minute fell short by (the
 * CPU whenever it was busy); with none, the line says no limit explains it, with the figures.
 */
final class UnderRate {

    static final double SHARE = 0.95;
    static final double NAMED = 0.10;

    private record Cause(String phrase, double lostMs) {}

    private final RelayConnectionTable connections = new RelayConnectionTable();
    private final RunSecondTable seconds = new RunSecondTable();

    /**
     * @param sentLastMinute sent over the last minute
     * @param fullMinute     the campaign was already sending before the minute began (a first minute
     *                       that started part-way is not a slow one)
     * @param configured     the route's configured rate now; 0 = no limit (never under it)
     * @param held           what else holds it back: any of it explains the rate
     */
    Optional<String> read(Connection c, Campaign campaign, RelayRoute route, long remaining, long sentLastMinute,
                          boolean fullMinute, double configured, List<String> held, Instant now, Duration over)
            throws SQLException {
        double rate = sentLastMinute / (over.toMillis() / 1000.0);
        if (campaign.status() != CampaignStatus.RUNNING || remaining == 0 || configured <= 0 || !fullMinute
                || !held.isEmpty() || rate >= SHARE * configured) {
            return Optional.empty();
        }
        Map<String, RelayPools> pools = connections.pools(c);
        Instant end = now.truncatedTo(ChronoUnit.SECONDS);
        Optional<RunMinute> minute = RunMinute.of(seconds.since(c, campaign.id(), end.minus(over)), end, over);
        double overMs = over.toMillis();
        double shortMs = overMs * (1 - rate / configured);
        long gap = minute.map(RunMinute::gapMs).orElse(0L);
        long db = minute.map(RunMinute::dbWaitMs).orElse(0L);
        List<Cause> causes = new ArrayList<>();
        causes.add(new Cause(String.format(Locale.ROOT, "run boundaries: %.1f s of the minute between one run's last "
                + "message and the next one's first", gap / 1000.0), gap));
        causes.add(new Cause(String.format(Locale.ROOT, "database: sending waited %.1f s of the minute on it (claiming "
                + "the next batch, marking recipients in flight)", db / 1000.0), db));
        causes.addAll(0, lanes(route, pools, Math.max(0, overMs - gap - db)));
        List<Cause> named = new ArrayList<>(causes.stream().filter(k -> k.lostMs() > 0 && k.lostMs() >= NAMED * shortMs).toList());
        if (minute.isPresent() && minute.get().cpuBound()) {
            double explained = named.stream().mapToDouble(Cause::lostMs).sum();
            named.add(new Cause("CPU of the worker: " + minute.get().describeCpu(), Math.max(0, shortMs - explained)));
        }
        String pace = String.format(Locale.ROOT, "sending at %.1f/s, %.0f%% of %s over the last minute", rate,
                100 * rate / configured, HeldBack.perSecond(configured));
        if (!named.isEmpty()) {
            // Stable: of two causes with the same share, the one listed first above comes first.
            named.sort(Comparator.comparingDouble(Cause::lostMs).reversed());
            return Optional.of(String.join("; also ", named.stream().map(Cause::phrase).toList()) + " — " + pace);
        }
        List<String> figures = new ArrayList<>();
        minute.ifPresent(m -> figures.add(String.format(Locale.ROOT,
                "the runs sent through %.1f s of the minute and waited %.1f s of it on the database%s",
                (overMs - m.gapMs()) / 1000.0, m.dbWaitMs() / 1000.0, m.cpu().isPresent() ? "; CPU " + m.describeCpu() : "")));
        for (String relay : route.relays()) {
            RelayPools p = pools.get(relay);
            if (p != null) {
                figures.add("relay " + relay + ": " + p.open() + " connection(s) open of " + p.target() + " wanted, "
                        + p.messageMillis().map(ms -> ms + " ms a message").orElse("no time per message measured yet"));
            }
        }
        if (figures.size() == (minute.isPresent() ? 1 : 0)) {
            figures.add("no sending run reports its connections");
        }
        return Optional.of(pace + "; no limit explains it (nothing measured accounts for it): " + String.join("; ", figures));
    }

    /**
     * Each relay of the route whose open connections, at its measured time per message, carry less
     * than its rate: its share of the route's rate it misses, over the time the runs were sending.
     */
    private static List<Cause> lanes(RelayRoute route, Map<String, RelayPools> pools, double sendingMs) {
        double total = route.relays().stream().map(pools::get).filter(p -> p != null && p.rate() > 0)
                .mapToDouble(RelayPools::rate).sum();
        List<Cause> causes = new ArrayList<>();
        for (String relay : route.relays()) {
            RelayPools p = pools.get(relay);
            if (p == null || p.rate() <= 0 || p.open() == 0 || p.messageMillis().filter(ms -> ms > 0).isEmpty()) {
                continue;
            }
            int ms = p.messageMillis().get();
            double reach = p.open() * 1000.0 / ms;
            if (reach >= p.rate()) {
                continue;
            }
            String to = route.relays().size() == 1 ? "" : " to relay " + relay;
            double lost = (p.rate() - reach) / total * sendingMs;
            if (p.open() < p.ceiling()) {
                int needed = p.needed().orElse((int) Math.ceil(p.rate() * ms / 1000.0));
                causes.add(new Cause(String.format(Locale.ROOT, "connections%s: %d open of %d needed at %d ms a message",
                        to, p.open(), needed, ms), lost));
            } else {
                causes.add(new Cause(String.format(Locale.ROOT, "round trip%s: %d ms a message over %d connections "
                        + "(the most allowed) carries at most %s", to, ms, p.open(), HeldBack.perSecond(reach)), lost));
            }
        }
        return causes;
    }
}
