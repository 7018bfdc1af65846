package dev.mailrun.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Puts the steady rows of several {@link ThroughputBenchmark} outputs side by side, by build: the
 * summary of {@code bench/run.sh throughput --against REV}, which alternates an earlier build's runs
 * with this tree's on one machine, so that a regression shows in the commit that causes it rather
 * than as a difference between two machines or two hours.
 *
 * <p>Arguments: {@code label=file} per run, in the order they ran. The first row of a run with more
 * than one is left out: the JIT compiler still works through it. Columns are found by their header
 * names, so outputs of earlier builds read the same; a column an earlier build does not print is
 * shown as "–".
 */
public final class ThroughputComparison {

    private ThroughputComparison() {}

    /** One build's steady rows: values by column name, pipeline and bare rows of the CPU table kept apart. */
    private static final class Build {
        int runs;
        final Map<String, List<Double>> values = new LinkedHashMap<>();

        void add(String column, String cell) {
            try {
                double v = Double.parseDouble(cell.replace(",", "").trim());
                if (!Double.isNaN(v)) {
                    values.computeIfAbsent(column, k -> new ArrayList<>()).add(v);
                }
            } catch (NumberFormatException e) {
                // an empty or non-numeric cell: nothing to add
            }
        }

        List<Double> of(String column) {
            return values.getOrDefault(column, List.of());
        }
    }

    private static final String[][] COLUMNS = {
        {"bare msg/s", "bare msg/s"},
        {"pipeline msg/s", "pipeline msg/s"},
        {"pipeline / bare", "**pipeline / bare**"},
        {"pipeline JVM ms/msg", "pipeline JVM ms/msg"},
        {"pipeline JVM less JIT ms/msg", "pipeline JVM less JIT ms/msg"},
        {"pipeline own DB threads ms/msg", "pipeline own DB ms/msg"},
        {"bare JVM ms/msg", "bare JVM ms/msg"},
        {"bare JVM less JIT ms/msg", "bare JVM less JIT ms/msg"},
        {"pipeline machine ms/msg", "pipeline machine ms/msg"},
        {"bare machine ms/msg", "bare machine ms/msg"},
    };

    public static void main(String[] argv) throws IOException {
        Map<String, Build> builds = new LinkedHashMap<>();
        for (String arg : argv) {
            int eq = arg.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("arguments are label=file, got " + arg);
            }
            Build b = builds.computeIfAbsent(arg.substring(0, eq), k -> new Build());
            b.runs++;
            read(Files.readAllLines(Path.of(arg.substring(eq + 1))), b);
        }
        System.out.println("Steady rows (the first row of each run left out), alternated builds; range (mean):");
        System.out.println();
        StringBuilder header = new StringBuilder("| build | runs | rows |");
        StringBuilder rule = new StringBuilder("|---|---:|---:|");
        for (String[] c : COLUMNS) {
            header.append(' ').append(c[1]).append(" |");
            rule.append("---|");
        }
        System.out.println(header);
        System.out.println(rule);
        builds.forEach((label, b) -> {
            StringBuilder row = new StringBuilder("| `" + label + "` | " + b.runs + " | " + b.of("pipeline msg/s").size() + " |");
            for (String[] c : COLUMNS) {
                row.append(' ').append(cell(b.of(c[0]), c[0].contains("ms/msg") ? 3 : c[0].contains("/ bare") ? 3 : 0)).append(" |");
            }
            System.out.println(row);
        });
        if (builds.size() == 2) {
            List<String> labels = new ArrayList<>(builds.keySet());
            Build earlier = builds.get(labels.get(0));
            Build later = builds.get(labels.get(1));
            System.out.println();
            System.out.printf("`%s` against `%s`, ratio of the means: pipeline / bare %s, pipeline msg/s %s, "
                            + "pipeline JVM less JIT ms/msg %s, pipeline own DB ms/msg %s%n", labels.get(1), labels.get(0),
                    ratio(later, earlier, "pipeline / bare"), ratio(later, earlier, "pipeline msg/s"),
                    ratio(later, earlier, "pipeline JVM less JIT ms/msg"), ratio(later, earlier, "pipeline own DB threads ms/msg"));
        }
        System.out.println();
        System.out.println("load average at the end (1, 5, 15 min): " + loadAverage());
    }

    /** Reads the throughput table and the CPU table of one run's output into {@code b}. */
    private static void read(List<String> lines, Build b) {
        List<String> header = null;
        String table = null;
        List<Map<String, String>> throughput = new ArrayList<>();
        List<Map<String, String>> cpuPipeline = new ArrayList<>();
        List<Map<String, String>> cpuBare = new ArrayList<>();
        for (String line : lines) {
            if (!line.startsWith("|")) {
                header = null;
                continue;
            }
            List<String> cells = cells(line);
            if (header == null) {
                header = cells;
                table = cells.contains("pipeline / bare") || cells.contains("pipeline msg/s") ? "throughput"
                        : cells.contains("row") ? "cpu" : "other";
                continue;
            }
            if (cells.get(0).startsWith("---")) {
                continue;
            }
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < Math.min(header.size(), cells.size()); i++) {
                row.put(header.get(i), cells.get(i));
            }
            if ("throughput".equals(table)) {
                throughput.add(row);
            } else if ("cpu".equals(table) && "pipeline".equals(row.get("row"))) {
                cpuPipeline.add(row);
            } else if ("cpu".equals(table) && "bare".equals(row.get("row"))) {
                cpuBare.add(row);
            }
        }
        int skip = throughput.size() > 1 ? 1 : 0;
        for (int i = skip; i < throughput.size(); i++) {
            Map<String, String> row = throughput.get(i);
            b.add("bare msg/s", row.getOrDefault("bare msg/s", ""));
            b.add("pipeline msg/s", row.getOrDefault("pipeline msg/s", ""));
            b.add("pipeline / bare", row.getOrDefault("pipeline / bare", ""));
        }
        for (int i = skip; i < cpuPipeline.size(); i++) {
            Map<String, String> row = cpuPipeline.get(i);
            b.add("pipeline JVM ms/msg", row.getOrDefault("JVM ms/msg", ""));
            b.add("pipeline JVM less JIT ms/msg", row.getOrDefault("JVM less JIT ms/msg", ""));
            b.add("pipeline own DB threads ms/msg", row.getOrDefault("own DB threads ms/msg", ""));
            b.add("pipeline machine ms/msg", row.getOrDefault("machine ms/msg", ""));
        }
        for (int i = skip; i < cpuBare.size(); i++) {
            b.add("bare JVM ms/msg", cpuBare.get(i).getOrDefault("JVM ms/msg", ""));
            b.add("bare JVM less JIT ms/msg", cpuBare.get(i).getOrDefault("JVM less JIT ms/msg", ""));
            b.add("bare machine ms/msg", cpuBare.get(i).getOrDefault("machine ms/msg", ""));
        }
    }

    private static List<String> cells(String line) {
        String inner = line.strip();
        inner = inner.substring(1, inner.endsWith("|") ? inner.length() - 1 : inner.length());
        List<String> cells = new ArrayList<>();
        for (String c : inner.split("\\|", -1)) {
            cells.add(c.strip());
        }
        return cells;
    }

    private static String cell(List<Double> v, int decimals) {
        if (v.isEmpty()) {
            return "–";
        }
        String f = "%,." + decimals + "f";
        double min = v.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double max = v.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        return String.format(f + "–" + f + " (" + f + ")", min, max, mean(v).orElseThrow());
    }

    private static OptionalDouble mean(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).average();
    }

    private static String ratio(Build later, Build earlier, String column) {
        OptionalDouble a = mean(later.of(column));
        OptionalDouble b = mean(earlier.of(column));
        return a.isPresent() && b.isPresent() && b.getAsDouble() != 0 ? String.format("%.3f", a.getAsDouble() / b.getAsDouble()) : "–";
    }

    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return f[0] + ", " + f[1] + ", " + f[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
