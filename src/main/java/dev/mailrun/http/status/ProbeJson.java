package dev.mailrun.http.status;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** {@code {"status":"UP","checks":{"database":{"status":"UP","detail":"answers"}}}}: what Kubernetes-style probes read. */
final class ProbeJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ProbeJson() {}

    static String of(Probe probe) {
        ObjectNode root = JSON.createObjectNode();
        root.put("status", status(probe.up()));
        ObjectNode checks = root.putObject("checks");
        for (Probe.Check c : probe.checks()) {
            checks.putObject(c.name()).put("status", status(c.up())).put("detail", c.detail());
        }
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree of plain JSON nodes always serialises", e);
        }
    }

    private static String status(boolean up) {
        return up ? "UP" : "DOWN";
    }
}
