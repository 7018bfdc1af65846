package dev.mailrun.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A {@link MailFromRecorder} running as a child JVM ({@link MailFromRecorder#main}). */
final class RecorderProcess implements ArrivalRecorder {

    private final Process process;
    private final BufferedReader out;
    private final Writer in;
    private final int port;

    private RecorderProcess(Process process) throws IOException {
        this.process = process;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII));
        this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.US_ASCII);
        String first = out.readLine();
        if (first == null || !first.startsWith("port ")) {
            process.destroyForcibly();
            throw new IOException("the recorder process did not start (said: " + first + ")");
        }
        this.port = Integer.parseInt(first.substring(5).trim());
    }

    /**
     * Starts the recorder; as root at a higher priority ({@code nice -n -10}), so that on a machine
     * whose cores the worker, its database and the sink share, the recorder reads each command when
     * it arrives, as a relay on a host of its own would, instead of when the scheduler lets it.
     */
    static RecorderProcess start(int upstreamPort, int capacity) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>();
        if ("root".equals(System.getProperty("user.name"))) {
            command.addAll(List.of("nice", "-n", "-10"));
        }
        command.addAll(List.of(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                MailFromRecorder.class.getName(), Integer.toString(upstreamPort), Integer.toString(capacity)));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        return new RecorderProcess(p);
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public synchronized long[] takeTimes() throws IOException {
        in.write("take\n");
        in.flush();
        long[] times = new long[1024];
        int n = 0;
        for (String line = out.readLine(); !"end".equals(line); line = out.readLine()) {
            if (line == null) {
                throw new IOException("the recorder process ended before answering");
            }
            if (n == times.length) {
                times = Arrays.copyOf(times, n * 2);
            }
            times[n++] = Long.parseLong(line);
        }
        return Arrays.copyOf(times, n);
    }

    @Override
    public void close() throws Exception {
        process.getOutputStream().close();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
