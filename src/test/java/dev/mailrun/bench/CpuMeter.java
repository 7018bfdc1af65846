package dev.mailrun.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * CPU time used by the processes of a benchmark row, read from {@code /proc} (Linux only; elsewhere
 * every figure is unknown).
 *
 * <p>Why: on a two-core machine the worker, the database server and the SMTP sink share the CPU,
 * so a row's messages/s says little about which of them a message costs. CPU milliseconds per
 * message, per process, does: when the machine is saturated, a row can go no faster than the
 * CPU it needs per message allows.
 */
final class CpuMeter {

    /** {@code /proc/<pid>/stat} counts in clock ticks; 100 per second on every Linux we run on. */
    static final double MS_PER_TICK = 10.0;

    private final long jvmPid;
    private final long sinkPid;
    private final OptionalLong dbPid;

    CpuMeter(long sinkPid) {
        this(sinkPid, findProcess("mariadbd"));
    }

    /** With the database server named by one of its threads: other {@code mariadbd}s (test databases) may run beside it. */
    static CpuMeter withDbThread(long sinkPid, long dbThreadId) {
        return new CpuMeter(sinkPid, processOfThread(dbThreadId));
    }

    /**
     * With the database server found through one of {@code ds}'s connections: the process of that
     * connection's server thread, not the first {@code mariadbd} on the machine (a test database may
     * run beside the benchmark's server).
     */
    static CpuMeter forServerOf(long sinkPid, javax.sql.DataSource ds) throws java.sql.SQLException {
        return withDbThread(sinkPid, serverThread(ds));
    }

    /** The server thread of one of {@code ds}'s connections (MariaDB 10.5 and later name it in PROCESSLIST.TID). */
    static long serverThread(javax.sql.DataSource ds) throws java.sql.SQLException {
        try (java.sql.Connection c = ds.getConnection();
             java.sql.PreparedStatement ps = c.prepareStatement(
                     "SELECT TID FROM information_schema.PROCESSLIST WHERE ID = CONNECTION_ID()");
             java.sql.ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private CpuMeter(long sinkPid, OptionalLong dbPid) {
        this.jvmPid = ProcessHandle.current().pid();
        this.sinkPid = sinkPid;
        this.dbPid = dbPid;
    }

    /** The process a thread belongs to: {@code Tgid} in {@code /proc/<tid>/status}. */
    static OptionalLong processOfThread(long tid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(tid), "status"))) {
                if (line.startsWith("Tgid:")) {
                    return OptionalLong.of(Long.parseLong(line.substring(5).trim()));
                }
            }
            return OptionalLong.empty();
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    Reading read() {
        long[] machine = machineTicks();
        return new Reading(ticks(jvmPid), sinkPid == jvmPid ? 0 : ticks(sinkPid),
                dbPid.isPresent() ? ticks(dbPid.getAsLong()) : -1, machine[0], machine[1], System.nanoTime());
    }

    /**
     * Ticks at one moment: this JVM, the sink (0 when it runs inside this JVM), the database (−1: not
     * found), all CPUs busy, and all CPUs stolen by the hypervisor (a virtual CPU that was ready to
     * run while the host ran something else).
     */
    record Reading(long jvm, long sink, long db, long machine, long steal, long nanos) {

        /** CPU per message between {@code before} and this reading. */
        Usage since(Reading before, long messages) {
            return new Usage(perMessage(jvm - before.jvm, messages), perMessage(sink - before.sink, messages),
                    db < 0 ? Double.NaN : perMessage(db - before.db, messages),
                    perMessage(machine - before.machine, messages),
                    (machine - before.machine) * MS_PER_TICK / ((nanos - before.nanos) / 1e6),
                    stolenShare(before));
        }

        /** The share of all CPUs' time the hypervisor took away between {@code before} and now. */
        double stolenShare(Reading before) {
            double elapsedTicks = (nanos - before.nanos) / 1e6 / MS_PER_TICK * Runtime.getRuntime().availableProcessors();
            return steal < 0 || before.steal < 0 ? Double.NaN : (steal - before.steal) / elapsedTicks;
        }

        private static double perMessage(long ticks, long messages) {
            return ticks < 0 || messages <= 0 ? Double.NaN : ticks * MS_PER_TICK / messages;
        }
    }

    /**
     * CPU milliseconds per message: this JVM, the sink, the database server, the whole machine (all
     * processes, kernel included), and how many cores were busy on average.
     */
    record Usage(double jvm, double sink, double db, double machine, double coresBusy, double stolen) {

        /** The rest of the machine: kernel work not charged to a process, other services. */
        double other() {
            return machine - jvm - sink - (Double.isNaN(db) ? 0 : db);
        }

        String cells() {
            return String.format("%.3f | %.3f | %.3f | %.3f | %.3f | %.2f | %.0f%%", jvm, db, sink, other(), machine,
                    coresBusy, stolen * 100);
        }
    }

    static String header() {
        return "JVM ms/msg | DB ms/msg | sink ms/msg | other ms/msg | machine ms/msg | cores busy | stolen";
    }

    /**
     * CPU ticks of one thread of the database server (a connection's thread, named by
     * {@code information_schema.PROCESSLIST.TID}); −1 when unknown. Other clients of a shared server
     * and its background work are not in it.
     */
    long dbThread(long tid) {
        return dbPid.isPresent() ? ticks(Path.of("/proc", Long.toString(dbPid.getAsLong()), "task", Long.toString(tid), "stat")) : -1;
    }

    /**
     * CPU ticks so far of this JVM's JIT compiler threads ({@code C1/C2 CompilerThread}); −1 when
     * unknown. A compiler thread that ended took its ticks with it, so run with
     * {@code -XX:-UseDynamicNumberOfCompilerThreads} where it matters.
     */
    static long compilerTicks() {
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            long sum = 0;
            for (Path t : (Iterable<Path>) tasks::iterator) {
                String comm;
                try {
                    comm = Files.readString(t.resolve("comm")).strip();
                } catch (IOException e) {
                    continue; // the thread ended meanwhile
                }
                if (comm.startsWith("C1 Compiler") || comm.startsWith("C2 Compiler")) {
                    sum += Math.max(0, ticks(t.resolve("stat")));
                }
            }
            return sum;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** CPU ticks of thread {@code tid} of process {@code pid}; −1 when unknown. */
    static long threadTicks(long pid, long tid) {
        return ticks(Path.of("/proc", Long.toString(pid), "task", Long.toString(tid), "stat"));
    }

    /** CPU ticks of process {@code pid}, all its threads; −1 when unknown. */
    static long processTicks(long pid) {
        return ticks(pid);
    }

    private static long ticks(long pid) {
        return ticks(Path.of("/proc", Long.toString(pid), "stat"));
    }

    private static long ticks(Path statFile) {
        try {
            String stat = Files.readString(statFile);
            // The command name (field 2) is in parentheses and may hold spaces: count from after it.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** {busy, stolen} ticks of all CPUs; −1 each when unknown. */
    private static long[] machineTicks() {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/stat"));
            String[] f = lines.get(0).trim().split("\\s+");
            // cpu user nice system idle iowait irq softirq steal …: busy = user + nice + system + irq
            // + softirq (idle, iowait and time stolen by the hypervisor are not ours).
            long busy = 0;
            for (int i : new int[] {1, 2, 3, 6, 7}) {
                busy += Long.parseLong(f[i]);
            }
            return new long[] {busy, Long.parseLong(f[8])};
        } catch (IOException | RuntimeException e) {
            return new long[] {-1, -1};
        }
    }

    private static OptionalLong findProcess(String command) {
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            return procs.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
                    .filter(p -> {
                        try {
                            return Files.readString(p.resolve("comm")).trim().equals(command);
                        } catch (IOException e) {
                            return false;
                        }
                    })
                    .mapToLong(p -> Long.parseLong(p.getFileName().toString()))
                    .findFirst();
        } catch (IOException e) {
            return OptionalLong.empty();
        }
    }
}
