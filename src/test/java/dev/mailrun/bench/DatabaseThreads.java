package dev.mailrun.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import javax.sql.DataSource;

/**
 * CPU ticks of the database server threads that serve this benchmark's connections: those whose
 * current database is the benchmark's ({@code information_schema.PROCESSLIST.DB} and {@code TID},
 * MariaDB 10.5 and later). Unlike the whole server's CPU, other clients of a shared server (test
 * suites, other benchmarks) are not in it, so builds can be compared on a busy machine.
 *
 * <p>Each thread counts from when it was first seen, and a thread gone since keeps what it had: the
 * pool's connections live through a benchmark, so little is missed.
 */
final class DatabaseThreads {

    private final DataSource ds;
    private final String database;
    private final long serverPid;
    private final Map<Long, long[]> firstAndLast = new HashMap<>();

    DatabaseThreads(DataSource ds, String database) throws SQLException {
        this.ds = ds;
        this.database = database;
        this.serverPid = CpuMeter.processOfThread(CpuMeter.serverThread(ds)).orElse(-1);
    }

    /** Ticks so far of the threads serving the database; −1 when the server's threads cannot be read. */
    synchronized long ticks() throws SQLException {
        if (serverPid < 0) {
            return -1;
        }
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT TID FROM information_schema.PROCESSLIST WHERE DB = ? AND TID IS NOT NULL")) {
            ps.setString(1, database);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long tid = rs.getLong(1);
                    long t = CpuMeter.threadTicks(serverPid, tid);
                    if (t >= 0) {
                        firstAndLast.computeIfAbsent(tid, k -> new long[] {t, t})[1] = t;
                    }
                }
            }
        }
        long sum = 0;
        for (long[] fl : firstAndLast.values()) {
            sum += fl[1] - fl[0];
        }
        return sum;
    }
}
