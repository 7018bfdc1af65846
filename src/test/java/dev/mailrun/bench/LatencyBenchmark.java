package dev.mailrun.bench;

import dev.mailrun.mail.smtp.SendRateLimiter;

/**
 * Parallel connections against a slow relay: a proxy in front of the sink holds back every reply
 * line by a fixed delay, and the SMTP pool sends for a fixed time at each connection count.
 *
 * <p>Arguments: {@code --delay-ms 20 --seconds 10 --connections 1,2,4,8,16}.
 */
public final class LatencyBenchmark {

    private LatencyBenchmark() {}

    public static void main(String[] argv) throws Exception {
        Args args = new Args(argv);
        int delay = args.integer("delay-ms", 20);
        int seconds = args.integer("seconds", 10);
        int[] connections = args.integers("connections", 1, 2, 4, 8, 16);
        try (Sink sink = Sink.start(); DelayProxy proxy = DelayProxy.fixed(sink.port(), delay)) {
            System.out.println(Machine.describe("(not used)", sink.description()));
            System.out.printf("every reply line delayed %d ms; %d s per row; no rate limit; warm-up 3 s at 4 connections%n%n",
                    delay, seconds);
            PoolRun.send(PipelineHarness.smtp(proxy.port(), 4), SendRateLimiter.unlimited(), 100_000, 3);
            System.out.println("| connections | messages | msg/s | ms per message per connection | x one connection |");
            System.out.println("|---:|---:|---:|---:|---:|");
            double one = 0;
            for (int n : connections) {
                PoolRun run = PoolRun.send(PipelineHarness.smtp(proxy.port(), n), SendRateLimiter.unlimited(),
                        100_000, seconds);
                if (n == 1) {
                    one = run.rate();
                }
                System.out.printf("| %d | %d | %.1f | %.1f | %s |%n", n, run.sent, run.rate(),
                        1000.0 * n / run.rate(), one > 0 ? String.format("%.2f", run.rate() / one) : "-");
            }
        }
    }
}
