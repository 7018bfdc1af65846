package dev.mailrun.bench;

import dev.mailrun.campaign.store.ClaimedRecipient;
import dev.mailrun.campaign.store.Outcome;
import dev.mailrun.campaign.store.InFlightTable;
import dev.mailrun.campaign.store.recipient.RecipientClaims;
import dev.mailrun.campaign.store.recipient.RecipientResults;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.db.Transactions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * Database server CPU per recipient for the statements that carry a recipient through a run —
 * claim, mark in flight, record as sent — through the production {@link RecipientClaims} and {@link RecipientResults} and
 * {@link InFlightTable}, with no SMTP and no worker work in the way. A mark writes the run's one
 * in-flight row with the group's ids, not the recipients' rows.
 *
 * <p>Why: the throughput benchmark shows the database server's CPU per message but not which
 * statement it goes to, nor how it depends on how many recipients one transaction carries. Here
 * each kind runs in its own transactions, {@code group} recipients per mark and per record (the
 * sending run's flushes carry a few to a few dozen), and the server's CPU ticks while each kind
 * ran are summed separately; "whole row" is all of the server's CPU from the first claim to the
 * last record (background work such as purging old row versions included). "Own thread" is the CPU
 * of the one server thread that ran every statement of the row (a pool of one connection): other
 * clients of a shared server and background purging are not in it, so it moves less between runs.
 *
 * <p>Arguments: {@code --recipients 50000 --groups 8,32,128,500 --batch 500}.
 */
public final class DatabaseCostBenchmark {

    private DatabaseCostBenchmark() {}

    public static void main(String[] argv) throws Exception {
        Args args = new Args(argv);
        int recipients = args.integer("recipients", 50_000);
        int batch = args.integer("batch", 500);
        int[] groups = args.integers("groups", 8, 32, 128, 500);
        try (BenchDatabase probe = BenchDatabase.create("mailrun_bench_probe", 1)) {
            System.out.println(Machine.describe(probe.serverVersion(), "none"));
        }
        System.out.printf("%n%,d recipients per row, claimed %d at a time; mark and record in transactions of "
                + "<group> recipients; database server CPU in microseconds per recipient%n%n", recipients, batch);
        System.out.println("| group | claim µs | mark µs | record sent µs | sum µs | whole row µs | own thread: claim / mark / record / sum µs | transactions per recipient | wall s | stolen |");
        System.out.println("|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|");
        for (int group : groups) {
            row(recipients, batch, group);
        }
    }

    private static void row(int recipients, int batch, int group) throws Exception {
        // One connection (a pool of one): its server thread runs every statement of the row.
        try (BenchDatabase db = BenchDatabase.create("mailrun_bench_dbcost", 1)) {
            DataSource ds = db.dataSource();
            long id = ScaleBenchmark.campaign(ds, "db cost");
            Recipients.insertPending(ds, id, 0, recipients);
            Recipients.analyze(ds);
            RecipientClaims claims = new RecipientClaims(new SuppressionTable());
            RecipientResults results = new RecipientResults();
            InFlightTable inFlight = new InFlightTable();
            String token = UUID.randomUUID().toString();
            Transactions.inTransaction(ds, c -> {
                inFlight.hold(c, id, token, Instant.now());
                return null;
            });
            long tid = CpuMeter.serverThread(ds);
            // The server process by its thread, not by name: test databases may run beside it.
            CpuMeter meter = CpuMeter.withDbThread(ProcessHandle.current().pid(), tid);
            long[] ticks = new long[3];
            long[] own = new long[3];
            long transactions = 0;
            long done = 0;
            CpuMeter.Reading start = meter.read();
            while (true) {
                Instant now = Instant.now();
                RecipientClaims.Claim claim = measured(ds, meter, tid, ticks, own, 0, c -> claims.claim(c, id, now, batch, List.of()));
                transactions++;
                List<ClaimedRecipient> rows = claim.recipients();
                if (rows.isEmpty()) {
                    break;
                }
                for (int from = 0; from < rows.size(); from += group) {
                    SortedSet<Long> ids = rows.subList(from, Math.min(rows.size(), from + group)).stream().map(ClaimedRecipient::id)
                            .collect(Collectors.toCollection(TreeSet::new));
                    boolean marked = measured(ds, meter, tid, ticks, own, 1, c -> inFlight.write(c, id, token, ids, now));
                    transactions++;
                    check(marked ? 1 : 0, 1, "marked");
                }
                for (int from = 0; from < rows.size(); from += group) {
                    List<Outcome> sent = new ArrayList<>();
                    for (ClaimedRecipient r : rows.subList(from, Math.min(rows.size(), from + group))) {
                        sent.add(new Outcome.Sent(r.id(), "<c" + id + ".r" + r.id() + ".0123456789abcdef@sender.example>", now));
                    }
                    int recorded = measured(ds, meter, tid, ticks, own, 2, c -> results.record(c, id, sent, now));
                    transactions++;
                    check(recorded, sent.size(), "recorded");
                }
                done += rows.size();
            }
            CpuMeter.Reading end = meter.read();
            check((int) done, recipients, "sent");
            check((int) tid, (int) CpuMeter.serverThread(ds), "server thread");
            double seconds = (end.nanos() - start.nanos()) / 1e9;
            System.out.printf("| %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f / %.1f / %.1f / %.1f | %.3f | %.1f | %.0f%% |%n", group,
                    micros(ticks[0], done), micros(ticks[1], done), micros(ticks[2], done),
                    micros(ticks[0] + ticks[1] + ticks[2], done), micros(end.db() - start.db(), done),
                    micros(own[0], done), micros(own[1], done), micros(own[2], done), micros(own[0] + own[1] + own[2], done),
                    (double) transactions / done, seconds, end.stolenShare(start) * 100);
        }
    }

    /**
     * One transaction of one kind, as the sending path runs it ({@link Transactions}), its server CPU
     * (whole server, and the connection's own thread) added to slot {@code kind}.
     */
    private static <T> T measured(DataSource ds, CpuMeter meter, long tid, long[] ticks, long[] own, int kind,
                                  Transactions.Work<T> work) throws SQLException {
        long thread = meter.dbThread(tid);
        CpuMeter.Reading before = meter.read();
        T result = Transactions.inTransaction(ds, work);
        ticks[kind] += meter.read().db() - before.db();
        own[kind] += meter.dbThread(tid) - thread;
        return result;
    }

    private static double micros(long ticks, long recipients) {
        return ticks * CpuMeter.MS_PER_TICK * 1000 / recipients;
    }

    private static void check(int got, int expected, String what) {
        if (got != expected) {
            throw new IllegalStateException(what + " " + got + " rows, expected " + expected);
        }
    }
}
