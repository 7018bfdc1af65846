package dev.mailrun.metrics;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** {@link PrometheusText} for tests in other packages. */
public final class PrometheusTextAccess {

    private PrometheusTextAccess() {}

    /** The families by name; throws on anything the format does not allow. */
    public static Map<String, ?> parse(String text) {
        return PrometheusText.parse(text);
    }

    public static Set<String> families(Map<String, ?> families) {
        return families.keySet();
    }

    public static String type(Map<String, ?> families, String family) {
        return ((PrometheusText.Family) families.get(family)).type();
    }

    @SuppressWarnings("unchecked")
    public static Optional<Double> value(Map<String, ?> families, String family, String sample, Map<String, String> labels) {
        return PrometheusText.value((Map<String, PrometheusText.Family>) families, family, sample, labels);
    }
}
