package dev.mailrun.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Threads following tracked links as people do: {@code GET <base><path>} with a browser's
 * User-Agent, one HTTP/1.1 connection per thread, each answer a 302 that is not followed; the
 * paths are taken in turn across the threads. Either as fast as each thread's answers come
 * (closed loop, latency from send to answer) or paced at a fixed offered rate spread evenly over
 * the threads, each request due at its own time: latency then runs from when the request was
 * due, so that a slow answer which delays the next requests is counted in theirs too (no
 * coordinated omission), and the offered rate is what was asked, not what the server allowed.
 */
final class ClickClients {

    private static final String USER_AGENT =
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";

    /** Latencies of the answers within the run, sorted, in nanoseconds. */
    record Latencies(long[] sorted, Duration length) {

        double perSecond() {
            return sorted.length / (length.toNanos() / 1e9);
        }

        double percentileMillis(double p) {
            return sorted.length == 0 ? Double.NaN
                    : sorted[Math.min(sorted.length - 1, Math.max(0, (int) Math.ceil(p * sorted.length) - 1))] / 1e6;
        }

        double maxMillis() {
            return sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1] / 1e6;
        }
    }

    private final int clients;
    private final double rate;

    /** @param rate requests per second offered in total; 0: closed loop, as fast as answers come */
    ClickClients(int clients, double rate) {
        if (clients < 1) {
            throw new IllegalArgumentException("--clients must be at least 1, got " + clients);
        }
        if (rate < 0) {
            throw new IllegalArgumentException("--rate must be 0 (as fast as answers come) or positive, got " + rate);
        }
        this.clients = clients;
        this.rate = rate;
    }

    /**
     * Follows {@code paths} on {@code base} (http://host:port) in turn, from the first again when
     * all were taken, for {@code length}.
     */
    Latencies run(String base, List<String> paths, Duration length) throws InterruptedException {
        if (paths.isEmpty()) {
            throw new IllegalArgumentException("no tracked link to follow");
        }
        long start = System.nanoTime();
        long end = start + length.toNanos();
        // Each thread's requests are this far apart; thread t starts t/clients of it later.
        long every = rate > 0 ? (long) (clients * 1e9 / rate) : 0;
        AtomicLong next = new AtomicLong();
        AtomicReference<Exception> failure = new AtomicReference<>();
        List<long[][]> perThread = new ArrayList<>();
        List<int[]> counts = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < clients; t++) {
            long[][] lat = {new long[1024]};
            int[] n = {0};
            perThread.add(lat);
            counts.add(n);
            long first = start + (every * t) / clients;
            Thread thread = new Thread(() -> {
                HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                        .followRedirects(HttpClient.Redirect.NEVER).build();
                long due = first;
                try {
                    while (true) {
                        long now = System.nanoTime();
                        while (every > 0 && now < due && due < end) {
                            LockSupport.parkNanos(due - now);
                            now = System.nanoTime();
                        }
                        // Requests still due at the end are not sent: behind schedule, the rate
                        // achieved falls short of the offered one instead of the run outlasting its length.
                        if (now >= end || (every > 0 && due >= end)) {
                            break;
                        }
                        long from = every > 0 ? due : now;
                        String path = paths.get((int) (next.getAndIncrement() % paths.size()));
                        HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create(base + path))
                                .header("User-Agent", USER_AGENT).build(), HttpResponse.BodyHandlers.discarding());
                        if (r.statusCode() != 302) {
                            throw new IllegalStateException("answer " + r.statusCode() + " for " + path);
                        }
                        if (n[0] == lat[0].length) {
                            lat[0] = Arrays.copyOf(lat[0], lat[0].length * 2);
                        }
                        lat[0][n[0]++] = System.nanoTime() - from;
                        due += every;
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (IOException | RuntimeException e) {
                    failure.compareAndSet(null, e);
                }
            }, "click-client-" + t);
            threads.add(thread);
            thread.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("a click client failed: " + failure.get(), failure.get());
        }
        int total = counts.stream().mapToInt(c -> c[0]).sum();
        long[] all = new long[total];
        int at = 0;
        for (int t = 0; t < clients; t++) {
            System.arraycopy(perThread.get(t)[0], 0, all, at, counts.get(t)[0]);
            at += counts.get(t)[0];
        }
        Arrays.sort(all);
        return new Latencies(all, length);
    }
}
