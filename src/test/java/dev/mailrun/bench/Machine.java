package dev.mailrun.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/** The machine line every benchmark prints above its table. */
final class Machine {

    private Machine() {}

    static String describe(String databaseVersion, String sink) {
        return "date " + Instant.now().toString().substring(0, 10)
                + " | cpus " + Runtime.getRuntime().availableProcessors()
                + " | " + cpuModel()
                + " | RAM " + memTotalGib() + " GiB"
                + " | Java " + System.getProperty("java.vm.version")
                + " | database " + databaseVersion
                + " | sink " + sink;
    }

    private static String cpuModel() {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/cpuinfo"));
            return lines.stream().filter(l -> l.startsWith("model name")).findFirst()
                    .map(l -> l.substring(l.indexOf(':') + 1).strip()).orElse("unknown cpu");
        } catch (IOException e) {
            return "unknown cpu";
        }
    }

    private static String memTotalGib() {
        try {
            return Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal:"))
                    .findFirst().map(l -> String.format("%.1f", Long.parseLong(l.replaceAll("\\D", "")) / 1048576.0))
                    .orElse("?");
        } catch (IOException e) {
            return "?";
        }
    }

    /** Resident set size of a process in KiB, from /proc; -1 when it is gone. */
    static long rssKib(long pid) {
        try {
            return Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream().filter(l -> l.startsWith("VmRSS:"))
                    .findFirst().map(l -> Long.parseLong(l.replaceAll("\\D", ""))).orElse(-1L);
        } catch (IOException e) {
            return -1;
        }
    }
}
