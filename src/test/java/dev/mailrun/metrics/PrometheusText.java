package dev.mailrun.metrics;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A strict parser of the Prometheus text exposition format, version 0.0.4, following its
 * specification: Maven Central has no maintained Java parser for it (the one there skips lines it
 * cannot read), and a test that reads metrics must fail on any line a Prometheus server would refuse.
 *
 * <p>It refuses: a malformed line, name, label or value; an escape other than {@code \\ \" \n}; a second
 * HELP or TYPE for a name, or a TYPE after its samples; samples of one family not in one group; a
 * sample repeated with the same labels; a counter or gauge sample not named as its family; a histogram
 * without its {@code +Inf} bucket, with buckets that decrease, or whose {@code +Inf} bucket differs from
 * its {@code _count}.
 */
final class PrometheusText {

    private static final Pattern METRIC_NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
    private static final Set<String> TYPES = Set.of("counter", "gauge", "histogram", "summary", "untyped");

    record Sample(String name, Map<String, String> labels, double value) {}

    record Family(String name, String type, String help, List<Sample> samples) {}

    static final class ParseException extends RuntimeException {
        ParseException(int line, String message) {
            super("line " + line + ": " + message);
        }
    }

    private PrometheusText() {}

    /** The families by name, in order of appearance. */
    static Map<String, Family> parse(String text) {
        Map<String, String> types = new LinkedHashMap<>();
        Map<String, String> helps = new LinkedHashMap<>();
        Map<String, List<Sample>> samples = new LinkedHashMap<>();
        Set<String> closed = new HashSet<>();
        Set<String> seen = new HashSet<>();
        String current = null;
        String[] lines = text.split("\n", -1);
        if (!text.isEmpty() && !text.endsWith("\n")) {
            throw new ParseException(lines.length, "the exposition must end with a line feed");
        }
        for (int i = 0; i < lines.length; i++) {
            int no = i + 1;
            String line = lines[i];
            if (line.isBlank()) {
                continue;
            }
            if (line.startsWith("#")) {
                String[] parts = line.split(" ", 4);
                if (parts.length >= 3 && (parts[1].equals("HELP") || parts[1].equals("TYPE"))) {
                    String name = parts[2];
                    require(METRIC_NAME.matcher(name).matches(), no, "bad metric name " + name);
                    if (parts[1].equals("HELP")) {
                        require(helps.put(name, unescape(parts.length == 4 ? parts[3] : "", false, no)) == null, no,
                                "second HELP for " + name);
                    } else {
                        require(parts.length == 4 && TYPES.contains(parts[3]), no, "bad TYPE line: " + line);
                        require(!samples.containsKey(name), no, "TYPE for " + name + " after its samples");
                        require(types.put(name, parts[3]) == null, no, "second TYPE for " + name);
                    }
                }
                continue;
            }
            Sample s = sample(line, no);
            String family = familyOf(s.name(), types);
            if (!family.equals(current)) {
                require(!closed.contains(family), no, "samples of " + family + " are not in one group");
                if (current != null) {
                    closed.add(current);
                }
                current = family;
            }
            require(seen.add(s.name() + new TreeMap<>(s.labels())), no, "repeated sample " + s.name() + s.labels());
            String type = types.getOrDefault(family, "untyped");
            if (type.equals("counter") || type.equals("gauge")) {
                require(s.name().equals(family), no, type + " sample " + s.name() + " not named " + family);
            }
            if (s.name().equals(family + "_bucket") && type.equals("histogram")) {
                require(s.labels().containsKey("le"), no, "bucket without le");
            }
            samples.computeIfAbsent(family, k -> new ArrayList<>()).add(s);
        }
        Map<String, Family> families = new LinkedHashMap<>();
        samples.forEach((name, list) -> {
            String type = types.getOrDefault(name, "untyped");
            if (type.equals("histogram")) {
                checkHistogram(name, list);
            }
            families.put(name, new Family(name, type, helps.getOrDefault(name, ""), List.copyOf(list)));
        });
        return families;
    }

    /** The value of the one sample with exactly these labels, if there is one. */
    static Optional<Double> value(Map<String, Family> families, String family, String sample, Map<String, String> labels) {
        Family f = families.get(family);
        if (f == null) {
            return Optional.empty();
        }
        return f.samples().stream().filter(s -> s.name().equals(sample) && s.labels().equals(labels))
                .map(Sample::value).findFirst();
    }

    private static String familyOf(String sample, Map<String, String> types) {
        for (String suffix : new String[] {"_bucket", "_count", "_sum"}) {
            if (sample.endsWith(suffix)) {
                String base = sample.substring(0, sample.length() - suffix.length());
                String type = types.get(base);
                if ("histogram".equals(type) || ("summary".equals(type) && !suffix.equals("_bucket"))) {
                    return base;
                }
            }
        }
        return sample;
    }

    private static void checkHistogram(String name, List<Sample> list) {
        Map<Map<String, String>, TreeMap<Double, Double>> buckets = new LinkedHashMap<>();
        Map<Map<String, String>, Double> counts = new LinkedHashMap<>();
        for (Sample s : list) {
            Map<String, String> series = new TreeMap<>(s.labels());
            String le = series.remove("le");
            if (s.name().equals(name + "_bucket")) {
                buckets.computeIfAbsent(series, k -> new TreeMap<>()).put(number(le, 0), s.value());
            } else if (s.name().equals(name + "_count")) {
                counts.put(series, s.value());
            }
        }
        buckets.forEach((series, b) -> {
            require(b.containsKey(Double.POSITIVE_INFINITY), 0, name + series + " has no +Inf bucket");
            double previous = 0;
            for (double v : b.values()) {
                require(v >= previous, 0, name + series + " has decreasing buckets");
                previous = v;
            }
            require(counts.containsKey(series) && counts.get(series).equals(b.get(Double.POSITIVE_INFINITY)), 0,
                    name + series + ": the +Inf bucket differs from _count");
        });
    }

    private static Sample sample(String line, int no) {
        int i = 0;
        while (i < line.length() && line.charAt(i) != '{' && line.charAt(i) != ' ') {
            i++;
        }
        String name = line.substring(0, i);
        require(METRIC_NAME.matcher(name).matches(), no, "bad metric name '" + name + "'");
        Map<String, String> labels = new LinkedHashMap<>();
        if (i < line.length() && line.charAt(i) == '{') {
            i++;
            while (line.charAt(i) != '}') {
                int eq = line.indexOf('=', i);
                require(eq > i, no, "label without '='");
                String label = line.substring(i, eq);
                require(LABEL_NAME.matcher(label).matches(), no, "bad label name '" + label + "'");
                require(eq + 1 < line.length() && line.charAt(eq + 1) == '"', no, "label value not quoted");
                StringBuilder raw = new StringBuilder();
                int j = eq + 2;
                while (j < line.length() && line.charAt(j) != '"') {
                    if (line.charAt(j) == '\\') {
                        require(j + 1 < line.length(), no, "escape at end of line");
                        raw.append('\\');
                        j++;
                    }
                    raw.append(line.charAt(j));
                    j++;
                }
                require(j < line.length(), no, "unterminated label value");
                require(labels.put(label, unescape(raw.toString(), true, no)) == null, no, "label " + label + " twice");
                i = j + 1;
                require(i < line.length(), no, "unterminated label set");
                if (line.charAt(i) == ',') {
                    i++;
                }
                require(i < line.length(), no, "unterminated label set");
            }
            i++;
        }
        require(i < line.length() && line.charAt(i) == ' ', no, "no value");
        String[] rest = line.substring(i + 1).strip().split(" +");
        require(rest.length == 1 || rest.length == 2, no, "expected a value and an optional timestamp");
        double value = number(rest[0], no);
        if (rest.length == 2) {
            require(rest[1].matches("-?\\d+"), no, "bad timestamp " + rest[1]);
        }
        return new Sample(name, Map.copyOf(labels), value);
    }

    private static double number(String v, int no) {
        switch (v) {
            case "+Inf":
                return Double.POSITIVE_INFINITY;
            case "-Inf":
                return Double.NEGATIVE_INFINITY;
            case "NaN":
                return Double.NaN;
            default:
                require(v.matches("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?"), no, "bad number '" + v + "'");
                return Double.parseDouble(v);
        }
    }

    private static String unescape(String s, boolean quotes, int no) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\') {
                out.append(c);
                continue;
            }
            require(i + 1 < s.length(), no, "escape at end");
            char e = s.charAt(++i);
            switch (e) {
                case '\\' -> out.append('\\');
                case 'n' -> out.append('\n');
                case '"' -> {
                    require(quotes, no, "\\\" is not an escape in HELP text");
                    out.append('"');
                }
                default -> throw new ParseException(no, "unknown escape \\" + e);
            }
        }
        return out.toString();
    }

    private static void require(boolean ok, int line, String message) {
        if (!ok) {
            throw new ParseException(line, message);
        }
    }
}
