package dev.mailrun.testing;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SpamAssassin as a receiving server runs it, on its local rules only ({@code spamassassin -L -t}:
 * no DNS blocklists, no network checks, no Bayes), so that a score depends on the message alone.
 * The Debian package {@code spamassassin}; a test without it skips ({@link #installed}).
 */
public final class SpamAssassin {

    /** The score and the rules that fired, as its {@code X-Spam-Status} header says. */
    public record Score(double score, List<String> rules) {
        @Override
        public String toString() {
            return score + " " + rules;
        }
    }

    private static final Pattern STATUS = Pattern.compile("(?m)^X-Spam-Status: [^\\n]*(?:\\n[ \\t][^\\n]*)*");
    private static final Pattern SCORE = Pattern.compile("score=(-?[0-9]+(?:\\.[0-9]+)?)");
    private static final Pattern TESTS = Pattern.compile("tests=([A-Z0-9_,]*)");

    private final String executable;

    private SpamAssassin(String executable) {
        this.executable = executable;
    }

    /** The {@code spamassassin} on PATH, when there is one. */
    public static Optional<SpamAssassin> installed() {
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File f = new File(d, "spamassassin");
            if (f.canExecute()) {
                return Optional.of(new SpamAssassin(f.getAbsolutePath()));
            }
        }
        return Optional.empty();
    }

    /** Its version line, e.g. "SpamAssassin version 4.0.0". */
    public String version() throws IOException, InterruptedException {
        String out = run(List.of(executable, "--version"), new byte[0]);
        return out.lines().filter(l -> l.contains("SpamAssassin version")).findFirst().orElse(out.strip()).strip();
    }

    /** Scores one raw message (CRLF or LF line ends). */
    public Score score(String rawMessage) throws IOException, InterruptedException {
        // Bayes off and no user preferences: a score that depends on nothing but the message and the rules.
        String out = run(List.of(executable, "-L", "-t", "-x", "--cf=use_bayes 0", "--cf=bayes_auto_learn 0"),
                rawMessage.replace("\r\n", "\n").getBytes(StandardCharsets.UTF_8));
        Matcher status = STATUS.matcher(out.replace("\r\n", "\n"));
        if (!status.find()) {
            throw new AssertionError("spamassassin wrote no X-Spam-Status header:\n" + out);
        }
        String header = status.group().replaceAll("\\n[ \\t]+", "");
        Matcher score = SCORE.matcher(header);
        Matcher tests = TESTS.matcher(header);
        if (!score.find()) {
            throw new AssertionError("no score= in " + header);
        }
        List<String> rules = tests.find() && !tests.group(1).isEmpty() ? Arrays.asList(tests.group(1).split(",")) : List.of();
        return new Score(Double.parseDouble(score.group(1)), List.copyOf(rules));
    }

    private static String run(List<String> command, byte[] input) throws IOException, InterruptedException {
        Path err = Files.createTempFile("spamassassin", ".err");
        try {
            Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
            try (OutputStream in = p.getOutputStream()) {
                in.write(input);
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(2, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new AssertionError("spamassassin did not finish: " + command);
            }
            // -t exits 0 for ham and 1 for spam; anything else is a failure to run.
            if (p.exitValue() > 1) {
                throw new AssertionError("spamassassin exited " + p.exitValue() + ": " + Files.readString(err));
            }
            return out;
        } finally {
            Files.deleteIfExists(err);
        }
    }
}
