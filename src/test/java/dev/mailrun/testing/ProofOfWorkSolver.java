package dev.mailrun.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Base64;
import org.altcha.altcha.Altcha;

/** Solves a sign-up proof-of-work challenge as a browser does, with ALTCHA's own solver. */
public final class ProofOfWorkSolver {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ProofOfWorkSolver() {}

    /** The form field {@code altcha} for {@code challengeJson}: the number whose hash is the challenge, as base64 JSON. */
    public static String solve(String challengeJson) throws Exception {
        ObjectNode c = (ObjectNode) JSON.readTree(challengeJson);
        Altcha.Solution s = Altcha.solveChallenge(c.path("challenge").asText(), c.path("salt").asText(), Altcha.Algorithm.SHA256,
                c.path("maxnumber").asLong(), 0);
        if (s == null) {
            throw new AssertionError("the challenge has no solution up to its maxnumber: " + challengeJson);
        }
        ObjectNode payload = JSON.createObjectNode().put("algorithm", c.path("algorithm").asText())
                .put("challenge", c.path("challenge").asText()).put("number", s.number).put("salt", c.path("salt").asText())
                .put("signature", c.path("signature").asText());
        return Base64.getEncoder().encodeToString(JSON.writeValueAsBytes(payload));
    }
}
