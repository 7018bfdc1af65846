package dev.mailrun.bench;

import dev.mailrun.mail.smtp.SendRateLimiter;

/**
 * Rate accuracy: the SMTP pool with 4 connections and one shared rate limiter sends to the sink for
 * a fixed time at each rate, through a proxy that records when each MAIL FROM reaches the relay's
 * side of the wire; the completion time of every accepted message (when its result reached the
 * pool's callback) is recorded too.
 *
 * <ul>
 *   <li>achieved rate: (events − 1) / (last event − first event);</li>
 *   <li>max in 1 s: the most events in any window [t, t + 1 s) starting at an event.</li>
 * </ul>
 * Alongside each send run, {@link PermitGrants} measures the limiter alone.
 * Arguments: {@code --seconds 60 --rates 10,100,1000 --connections 4 --message composed|prebuilt}.
 */
public final class RateBenchmark {

    private RateBenchmark() {}

    public static void main(String[] argv) throws Exception {
        Args args = new Args(argv);
        int seconds = args.integer("seconds", 60);
        int connections = args.integer("connections", 4);
        int[] rates = args.integers("rates", 10, 100, 1000);
        boolean prebuilt = args.text("message", "composed").equals("prebuilt");
        // Long enough for the JIT compiler to finish with the sending and proxy code: on a slow
        // two-core machine a 3 s warm-up left the first seconds of the 1000/s run short of messages.
        int warmupSeconds = args.integer("warmup-seconds", 10);
        try (Sink sink = Sink.start()) {
            System.out.println(Machine.describe("(not used)", sink.description()));
            PoolRun warm;
            try (MailFromRecorder relay = new MailFromRecorder(sink.port(), 200_000)) {
                warm = PoolRun.send(PipelineHarness.smtp(relay.port(), connections), SendRateLimiter.unlimited(),
                        200_000, warmupSeconds, prebuilt);
            }
            System.out.printf("%d connections, %d s per rate, %s messages; unlimited rate in the %d s warm-up (through the relay proxy): %.0f msg/s%n",
                    connections, seconds, prebuilt ? "prebuilt (one per thread)" : "composed per message", warmupSeconds, warm.rate());
            System.out.println("Relay: when each MAIL FROM reached the relay's side of a proxy. Send completions: when each sent message's result reached the pool's callback. "
                    + "Grants: the limiter alone, " + connections + " threads, when each passed the send window after its permit's wait, "
                    + "and the due time the limiter returned (run alongside, own limiter).");
            System.out.println();
            System.out.println("| rate setting | measured | events | achieved /s | error | max in any 1 s | limit + 1 | within 1% | window ok |");
            System.out.println("|---:|---|---:|---:|---:|---:|---:|:---:|:---:|");
            CpuMeter cpu = new CpuMeter(sink.pid());
            StringBuilder stolen = new StringBuilder();
            for (int rate : rates) {
                CpuMeter.Reading before = cpu.read();
                int count = rate * seconds;
                PermitGrants grants = new PermitGrants(rate, connections, count).start();
                PoolRun run;
                long[] arrivals;
                try (MailFromRecorder relay = new MailFromRecorder(sink.port(), count + 1000)) {
                    run = PoolRun.send(PipelineHarness.smtp(relay.port(), connections), new SendRateLimiter(rate),
                            count, seconds + 30, prebuilt);
                    arrivals = relay.takeTimes();
                }
                row(rate, "relay (MAIL FROM arrivals)", arrivals);
                row(rate, "send completions", run.completions);
                row(rate, "grants (after the send window)", grants.awaitGrants());
                row(rate, "booked (limiter's due time)", grants.booked());
                if (run.other > 0) {
                    System.out.printf("  (%d messages not sent)%n", run.other);
                }
                stolen.append(String.format(" %d/s: %.0f%%;", rate, cpu.read().stolenShare(before) * 100));
            }
            // A virtual machine's host can take CPU away; threads then wake late whatever the code does.
            System.out.println();
            System.out.println("CPU time stolen by the hypervisor while each rate ran:" + stolen);
        }
    }

    private static void row(int rate, String what, long[] t) {
        double achieved = (t.length - 1) / ((t[t.length - 1] - t[0]) / 1e9);
        double error = (achieved - rate) / rate;
        int window = maxInWindow(t, 1_000_000_000L);
        System.out.printf("| %d | %s | %d | %.3f | %+.3f%% | %d | %d | %s | %s |%n", rate, what, t.length, achieved,
                100 * error, window, rate + 1, Math.abs(error) <= 0.01 ? "yes" : "no", window <= rate + 1 ? "yes" : "no");
    }

    static int maxInWindow(long[] sorted, long windowNanos) {
        int best = 0;
        int j = 0;
        for (int i = 0; i < sorted.length; i++) {
            while (j < sorted.length && sorted[j] - sorted[i] < windowNanos) {
                j++;
            }
            best = Math.max(best, j - i);
        }
        return best;
    }
}
