package dev.mailrun.bench;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The SMTP sink a benchmark sends to: the system's {@code smtp-sink} program when it is installed
 * (a fast, event-driven sink that discards mail), otherwise {@link NullSmtpSink} in this JVM.
 * {@code -Dbench.sink=builtin} forces the in-process one.
 */
public final class Sink implements AutoCloseable {

    private static final String PROGRAM = "/usr/sbin/smtp-sink";

    private final String description;
    private final int port;
    private final Process process;
    private final NullSmtpSink builtin;

    private Sink(String description, int port, Process process, NullSmtpSink builtin) {
        this.description = description;
        this.port = port;
        this.process = process;
        this.builtin = builtin;
    }

    public static Sink start() throws IOException, InterruptedException {
        return start(null);
    }

    /**
     * @param dumpDir where smtp-sink writes one file per message, named by the second of the sink's
     *                clock it arrived in ({@link #perSecond}); null: nothing is written
     */
    public static Sink start(java.nio.file.Path dumpDir) throws IOException, InterruptedException {
        boolean forceBuiltin = "builtin".equals(System.getProperty("bench.sink"));
        if (!forceBuiltin && new File(PROGRAM).canExecute()) {
            int port = freePort();
            List<String> command = new ArrayList<>(List.of(PROGRAM, "-u", "root"));
            if (dumpDir != null) {
                command.addAll(List.of("-d", dumpDir.toAbsolutePath() + "/%Y%m%d%H%M%S."));
            }
            command.addAll(List.of("127.0.0.1:" + port, "1000"));
            Process p = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            // A benchmark stopped by a signal still takes its sink down with it.
            Runtime.getRuntime().addShutdownHook(new Thread(p::destroy, "sink-stop"));
            awaitListening(port, p);
            return new Sink("smtp-sink (system program, pid " + p.pid() + ")", port, p, null);
        }
        NullSmtpSink sink = new NullSmtpSink();
        return new Sink("in-process null sink" + (forceBuiltin ? " (forced)" : " (smtp-sink not installed)"),
                sink.port(), null, sink);
    }

    public String description() {
        return description;
    }

    /** Short name for tables. */
    public String kind() {
        return process != null ? "smtp-sink" : "in-process";
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process != null ? process.pid() : ProcessHandle.current().pid();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static void awaitListening(int port, Process p) throws IOException, InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < until) {
            if (!p.isAlive()) {
                throw new IOException("smtp-sink exited with " + p.exitValue());
            }
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                return;
            } catch (IOException e) {
                Thread.sleep(50);
            }
        }
        p.destroy();
        throw new IOException("smtp-sink did not listen on port " + port + " within 10 s");
    }

    @Override
    public void close() throws IOException, InterruptedException {
        if (process != null) {
            process.destroy();
            process.waitFor(5, TimeUnit.SECONDS);
        }
        if (builtin != null) {
            builtin.close();
        }
    }
}
