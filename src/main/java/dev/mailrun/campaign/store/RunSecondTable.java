package dev.mailrun.campaign.store;

import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The campaign_run_second table: what the sending runs of a campaign did with each second of the
 * run's clock — how long they were sending, how long their sending waited on the database, and the
 * worker's CPU as they read it — so that {@code campaign status} can say why a minute ran under the
 * route's rate.
 */
public final class RunSecondTable {

    /** Seconds older than this are deleted at the end of each run: status reads the last minute. */
    public static final Duration KEPT = Duration.ofMinutes(10);

    /** The worker's CPU at a moment; each part empty where the JVM cannot tell it. */
    public record Cpu(Optional<Double> process, Optional<Double> host, Optional<Double> loadAverage, int cores) {
        public static final Cpu UNKNOWN = new Cpu(Optional.empty(), Optional.empty(), Optional.empty(), 0);
    }

    /**
     * One second of a campaign's runs: added to what is stored when written, as read when read.
     *
     * @param cpu the reading taken in this second, if one was
     */
    public record Second(Instant second, int sendingMs, int dbWaitMs, Optional<Cpu> cpu) {}

    /**
     * Adds the seconds' times to those stored (a reading replaces the stored one): one statement, as
     * {@code SentSecondTable.add}.
     */
    public void add(Connection c, long campaignId, List<Second> seconds) throws SQLException {
        if (seconds.isEmpty()) {
            return;
        }
        String rows = "SELECT ? AS campaign_id, ? AS second, ? AS ds, ? AS dw, ? AS pc, ? AS hc, ? AS la, ? AS co"
                + " UNION ALL SELECT ?, ?, ?, ?, ?, ?, ?, ?".repeat(seconds.size() - 1);
        // GREATEST: the run's last write takes back what it counted as sending after its last message.
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO campaign_run_second (campaign_id, second, sending_ms, db_wait_ms, process_cpu, host_cpu,
                                                 load_average, cores)
                SELECT campaign_id, second, GREATEST(0, ds), dw, pc, hc, la, co FROM (%s) v
                ON DUPLICATE KEY UPDATE sending_ms = GREATEST(0, sending_ms + v.ds), db_wait_ms = db_wait_ms + v.dw,
                    process_cpu = COALESCE(v.pc, process_cpu), host_cpu = COALESCE(v.hc, host_cpu),
                    load_average = COALESCE(v.la, load_average), cores = COALESCE(v.co, cores)""".formatted(rows))) {
            int i = 1;
            for (Second s : seconds) {
                ps.setLong(i++, campaignId);
                SqlTime.set(ps, i++, s.second().truncatedTo(ChronoUnit.SECONDS));
                ps.setInt(i++, s.sendingMs());
                ps.setInt(i++, s.dbWaitMs());
                Cpu cpu = s.cpu().orElse(Cpu.UNKNOWN);
                setDouble(ps, i++, cpu.process());
                setDouble(ps, i++, cpu.host());
                setDouble(ps, i++, cpu.loadAverage());
                if (cpu.cores() > 0) {
                    ps.setInt(i++, cpu.cores());
                } else {
                    ps.setNull(i++, Types.INTEGER);
                }
            }
            ps.executeUpdate();
        }
    }

    /** The campaign's seconds from the one holding {@code since} on, oldest first. */
    public List<Second> since(Connection c, long campaignId, Instant since) throws SQLException {
        List<Second> seconds = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT second, sending_ms, db_wait_ms, process_cpu, host_cpu, load_average, cores
                FROM campaign_run_second WHERE campaign_id = ? AND second >= ? ORDER BY second""")) {
            ps.setLong(1, campaignId);
            SqlTime.set(ps, 2, since.truncatedTo(ChronoUnit.SECONDS));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Optional<Double> process = optional(rs, 4);
                    Optional<Double> host = optional(rs, 5);
                    Optional<Double> load = optional(rs, 6);
                    int cores = rs.getInt(7);
                    Optional<Cpu> cpu = process.isPresent() || host.isPresent() || load.isPresent()
                            ? Optional.of(new Cpu(process, host, load, cores)) : Optional.empty();
                    seconds.add(new Second(SqlTime.get(rs, 1), rs.getInt(2), rs.getInt(3), cpu));
                }
            }
        }
        return seconds;
    }

    /** Deletes the campaign's seconds before {@code before}. */
    public int prune(Connection c, long campaignId, Instant before) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM campaign_run_second WHERE campaign_id = ? AND second < ?")) {
            ps.setLong(1, campaignId);
            SqlTime.set(ps, 2, before);
            return ps.executeUpdate();
        }
    }

    private static void setDouble(PreparedStatement ps, int index, Optional<Double> value) throws SQLException {
        if (value.isPresent()) {
            ps.setDouble(index, value.get());
        } else {
            ps.setNull(index, Types.DOUBLE);
        }
    }

    private static Optional<Double> optional(ResultSet rs, int column) throws SQLException {
        double v = rs.getDouble(column);
        return rs.wasNull() ? Optional.empty() : Optional.of(v);
    }
}
