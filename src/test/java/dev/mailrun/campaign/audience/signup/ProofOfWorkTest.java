package dev.mailrun.campaign.audience.signup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mailrun.testing.ProofOfWorkSolver;
import dev.mailrun.testing.SettableClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ProofOfWorkTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KEY = "0123456789abcdef0123456789abcdef-pow";

    private final SettableClock clock = SettableClock.at("2026-03-02T09:00:00Z");
    private final ProofOfWork proof = new ProofOfWork(KEY, 5_000, Duration.ofHours(1), clock);

    @Test
    void a_solved_challenge_is_taken_once() throws Exception {
        String solution = solve(proof.challenge());

        assertThat(proof.take(Optional.of(solution))).isTrue();
        assertThat(proof.take(Optional.of(solution))).as("the same solution again").isFalse();
        assertThat(proof.take(Optional.of(solve(proof.challenge())))).as("a new challenge, solved").isTrue();
    }

    @Test
    void the_challenge_says_what_the_browser_needs_and_expires_by_the_clock() throws Exception {
        ObjectNode c = (ObjectNode) JSON.readTree(proof.challenge());

        assertThat(c.path("algorithm").asText()).isEqualTo("SHA-256");
        assertThat(c.path("maxnumber").asLong()).isEqualTo(5_000);
        assertThat(c.path("salt").asText()).contains("?expires=" + clock.instant().plus(Duration.ofHours(1)).getEpochSecond());
        assertThat(c.path("challenge").asText()).hasSize(64);
        assertThat(c.path("signature").asText()).hasSize(64);
    }

    @Test
    void a_solution_sent_after_its_challenge_expired_is_refused() throws Exception {
        String solution = solve(proof.challenge());
        clock.advance(Duration.ofHours(1));

        assertThat(proof.take(Optional.of(solution))).isFalse();
    }

    @Test
    void a_wrong_number_an_altered_salt_or_another_key_is_refused() throws Exception {
        ObjectNode solved = (ObjectNode) JSON.readTree(decode(solve(proof.challenge())));

        assertThat(proof.take(Optional.of(encode(solved.deepCopy().put("number", solved.path("number").asLong() + 1))))).isFalse();
        assertThat(proof.take(Optional.of(encode(solved.deepCopy().put("salt", solved.path("salt").asText().replace("?", "0?"))))))
                .as("the salt changed: neither the hash nor the signature match").isFalse();
        ProofOfWork other = new ProofOfWork("another key of at least thirty-two chars", 5_000, Duration.ofHours(1), clock);
        assertThat(proof.take(Optional.of(solve(other.challenge())))).isFalse();
        assertThat(proof.take(Optional.of(encode(solved)))).as("the genuine one still works").isTrue();
    }

    @Test
    void anything_but_a_solution_is_refused_without_an_exception() {
        for (String junk : new String[] {"", "   ", "not base64!", Base64.getEncoder().encodeToString("[1,2]".getBytes()),
                Base64.getEncoder().encodeToString("{\"number\":\"x\"}".getBytes()), "A".repeat(ProofOfWork.MAX_PAYLOAD_CHARS + 1)}) {
            assertThat(proof.take(Optional.of(junk))).as(junk).isFalse();
        }
        assertThat(proof.take(Optional.empty())).isFalse();
    }

    @Test
    void a_difficulty_outside_the_bounds_is_refused_naming_the_key() {
        assertThatThrownBy(() -> new ProofOfWork(KEY, 999, Duration.ofHours(1), clock))
                .hasMessage("signup.proof-of-work-max-number must be 1000 to 10000000, got 999");
    }

    private static String solve(String challengeJson) throws Exception {
        return ProofOfWorkSolver.solve(challengeJson);
    }

    private static String encode(ObjectNode payload) throws Exception {
        return Base64.getEncoder().encodeToString(JSON.writeValueAsBytes(payload));
    }

    private static String decode(String base64) {
        return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
    }
}
