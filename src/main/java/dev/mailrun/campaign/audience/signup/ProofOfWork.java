package dev.mailrun.campaign.audience.signup;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.altcha.altcha.Altcha;

/**
 * The sign-up form's optional proof of work ({@code signup.proof-of-work}, docs/SIGNUP.md): an ALTCHA
 * challenge on each form, which the reader's browser solves by trying numbers until one hashes to it
 * (a second or so for a person, a real cost for a bot sending thousands), and its check when the form
 * comes back. ALTCHA's library makes and checks the challenges; mailrun adds what the library leaves
 * to the caller:
 *
 * <ul>
 *   <li>the expiry is read against the injected clock, not the machine's;</li>
 *   <li>a solved challenge is taken once: the ones taken are remembered, in memory only, until they
 *       expire (at most {@value #MAX_REMEMBERED}, the oldest forgotten first), so a bot cannot solve one
 *       and post it a thousand times;</li>
 *   <li>the HMAC key is derived from the shared secret, so any worker checks what another issued.</li>
 * </ul>
 */
public final class ProofOfWork {

    /** The default largest number a challenge hides: about 50,000 hashes on average, a second or so in a phone's browser. */
    public static final long DEFAULT_MAX_NUMBER = 100_000;
    /** Longest payload read: a genuine one is about 300 characters. */
    static final int MAX_PAYLOAD_CHARS = 2_048;
    static final int MAX_REMEMBERED = 100_000;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String hmacKey;
    private final long maxNumber;
    private final Duration ttl;
    private final Clock clock;
    /** Challenges already taken, with their expiry; insertion order is expiry order (one ttl for all). */
    private final Map<String, Instant> taken = new LinkedHashMap<>(1024, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Instant> eldest) {
            return size() > MAX_REMEMBERED;
        }
    };

    /**
     * @param hmacKey   the key challenges are signed with (the same on every worker)
     * @param maxNumber the largest number a challenge hides, 1,000 to 10,000,000
     * @param ttl       how long a challenge may be solved and sent in (the form's own maximum age)
     */
    public ProofOfWork(String hmacKey, long maxNumber, Duration ttl, Clock clock) {
        if (hmacKey == null || hmacKey.length() < 32) {
            throw new IllegalArgumentException("a proof-of-work key needs at least 32 characters");
        }
        if (maxNumber < 1_000 || maxNumber > 10_000_000) {
            throw new IllegalArgumentException("signup.proof-of-work-max-number must be 1000 to 10000000, got " + maxNumber);
        }
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("a proof-of-work challenge needs a positive lifetime");
        }
        this.hmacKey = hmacKey;
        this.maxNumber = maxNumber;
        this.ttl = ttl;
        this.clock = clock;
    }

    /** A new challenge as the JSON the browser (or ALTCHA's own widget) reads: algorithm, challenge, maxnumber, salt, signature. */
    public String challenge() {
        long expires = clock.instant().plus(ttl).getEpochSecond();
        try {
            Altcha.Challenge c = Altcha.createChallenge(new Altcha.ChallengeOptions().setAlgorithm(Altcha.Algorithm.SHA256)
                    .setMaxNumber(maxNumber).setSecureRandomNumber(true).setHmacKey(hmacKey).setExpires(expires));
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("algorithm", c.algorithm);
            json.put("challenge", c.challenge);
            json.put("maxnumber", c.maxnumber);
            json.put("salt", c.salt);
            json.put("signature", c.signature);
            return JSON.writeValueAsString(json);
        } catch (Exception e) {
            throw new IllegalStateException("could not make a proof-of-work challenge", e);
        }
    }

    /**
     * Whether {@code payload} (the form's {@code altcha} field: base64 of the solved challenge's JSON)
     * is a genuine, unexpired solution not taken before; a true answer takes it.
     */
    public boolean take(Optional<String> payload) {
        Optional<Altcha.Payload> solved = payload.filter(p -> !p.isBlank() && p.length() <= MAX_PAYLOAD_CHARS).flatMap(ProofOfWork::read);
        if (solved.isEmpty()) {
            return false;
        }
        Altcha.Payload p = solved.get();
        Instant now = clock.instant();
        Optional<Instant> expires = expiry(p.salt);
        if (expires.isEmpty() || !expires.get().isAfter(now)) {
            return false;
        }
        try {
            if (!Altcha.verifySolution(p, hmacKey, false)) {
                return false;
            }
        } catch (Exception e) {
            return false;   // a malformed field the library could not read: not a solution
        }
        synchronized (taken) {
            forgetExpired(now);
            return taken.putIfAbsent(p.challenge, expires.get()) == null;
        }
    }

    private void forgetExpired(Instant now) {
        for (Iterator<Instant> it = taken.values().iterator(); it.hasNext(); ) {
            if (it.next().isAfter(now)) {
                break;
            }
            it.remove();
        }
    }

    private static Optional<Altcha.Payload> read(String base64) {
        try {
            JsonNode n = JSON.readTree(new String(Base64.getDecoder().decode(base64.strip()), StandardCharsets.UTF_8));
            if (n == null || !n.isObject() || !n.path("number").canConvertToLong()) {
                return Optional.empty();
            }
            Altcha.Payload p = new Altcha.Payload();
            p.algorithm = n.path("algorithm").asText("");
            p.challenge = n.path("challenge").asText("");
            p.number = n.path("number").asLong();
            p.salt = n.path("salt").asText("");
            p.signature = n.path("signature").asText("");
            return p.challenge.isEmpty() || p.salt.isEmpty() || p.signature.isEmpty() ? Optional.empty() : Optional.of(p);
        } catch (IllegalArgumentException | java.io.IOException e) {
            return Optional.empty();
        }
    }

    /** The {@code expires} parameter (epoch seconds) the salt carries, as the library writes it. */
    private static Optional<Instant> expiry(String salt) {
        int q = salt.indexOf('?');
        if (q < 0) {
            return Optional.empty();
        }
        for (String pair : salt.substring(q + 1).split("&")) {
            if (pair.startsWith("expires=")) {
                try {
                    return Optional.of(Instant.ofEpochSecond(Long.parseLong(pair.substring("expires=".length()))));
                } catch (NumberFormatException e) {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }
}
