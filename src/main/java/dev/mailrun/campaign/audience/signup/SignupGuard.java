package dev.mailrun.campaign.audience.signup;

import dev.mailrun.campaign.unsubscribe.SignupTokens;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/**
 * The checks against bots and floods a sign-up passes before anything is stored or sent, in order:
 *
 * <ol>
 *   <li>the client's address within its rate ({@code signup.ip-limit} per {@code signup.limit-window});</li>
 *   <li>the form token: a hosted form's must be genuine and younger than {@code signup.form-max-age}
 *       (CSRF: only this server's pages carry one); a post without one (the operator's own page) is
 *       taken only with {@code signup.external-forms=true};</li>
 *   <li>the honeypot field empty, and a hosted form sent no sooner than {@code signup.min-fill-time}
 *       after it was shown: otherwise a bot's, answered as a person's would be, with nothing done;</li>
 *   <li>with {@code signup.proof-of-work} on, a solved challenge ({@link ProofOfWork}) not used before;</li>
 *   <li>the email address within its rate ({@code signup.address-limit} per window).</li>
 * </ol>
 */
public final class SignupGuard {

    /** What the checks decided. */
    public sealed interface Verdict {
        /** Go on with the sign-up. */
        record Pass() implements Verdict {}

        /** A bot's: answer as if done, do nothing. */
        record Silent(String why) implements Verdict {}

        /** Too many: answer 429 with this wait. */
        record Limited(Duration retryAfter) implements Verdict {}

        /** The form token is missing, forged or too old: the person reloads the form. */
        record StaleForm() implements Verdict {}

        /** The proof of work is missing, wrong, expired or used before: the form is sent again with a new challenge. */
        record Unproven() implements Verdict {}
    }

    /** The limits and times the guard applies. */
    public record Rules(int ipLimit, int addressLimit, Duration window, Duration minFillTime, Duration formMaxAge,
                        boolean externalForms) {}

    private final SignupTokens tokens;
    private final Rules rules;
    private final Clock clock;
    private final SignupLimits byClient;
    private final SignupLimits byAddress;
    private final Optional<ProofOfWork> proof;

    public SignupGuard(SignupTokens tokens, Rules rules, Clock clock) {
        this(tokens, rules, Optional.empty(), clock);
    }

    /** @param proof the proof of work each sign-up must carry; empty: none asked */
    public SignupGuard(SignupTokens tokens, Rules rules, Optional<ProofOfWork> proof, Clock clock) {
        this.proof = proof;
        this.tokens = tokens;
        this.rules = rules;
        this.clock = clock;
        this.byClient = new SignupLimits(rules.ipLimit(), rules.window(), clock);
        this.byAddress = new SignupLimits(rules.addressLimit(), rules.window(), clock);
    }

    /** A form token for a page shown now. */
    public String formToken() {
        return tokens.formToken();
    }

    /** Whether each sign-up must carry a solved proof-of-work challenge. */
    public boolean asksProofOfWork() {
        return proof.isPresent();
    }

    /** A proof-of-work challenge for a form shown now (its JSON); empty when none is asked. */
    public Optional<String> challenge() {
        return proof.map(ProofOfWork::challenge);
    }

    /**
     * @param client   the client's address (after the trusted proxies), the rate's key
     * @param email    the address as typed; its rate's key is it stripped and lower-cased
     */
    public Verdict check(Optional<String> formToken, String honeypot, String client, String email) {
        return check(formToken, honeypot, Optional.empty(), client, email);
    }

    /** @param solution the form's solved proof-of-work challenge ({@code altcha}), if it carried one */
    public Verdict check(Optional<String> formToken, String honeypot, Optional<String> solution, String client, String email) {
        Optional<Duration> wait = byClient.acquire(client);
        if (wait.isPresent()) {
            return new Verdict.Limited(wait.get());
        }
        Instant now = clock.instant();
        Optional<Instant> issued = Optional.empty();
        if (formToken.isPresent()) {
            issued = tokens.formIssued(formToken.get());
            if (issued.isEmpty() || issued.get().plus(rules.formMaxAge()).isBefore(now)) {
                return new Verdict.StaleForm();
            }
        } else if (!rules.externalForms()) {
            return new Verdict.StaleForm();
        }
        if (honeypot != null && !honeypot.isEmpty()) {
            return new Verdict.Silent("honeypot filled");
        }
        if (issued.isPresent() && issued.get().plus(rules.minFillTime()).isAfter(now)) {
            return new Verdict.Silent("sent too fast");
        }
        if (proof.isPresent() && !proof.get().take(solution)) {
            return new Verdict.Unproven();
        }
        Optional<Duration> addressWait = byAddress.acquire(email == null ? "" : email.strip().toLowerCase(Locale.ROOT));
        return addressWait.<Verdict>map(Verdict.Limited::new).orElseGet(Verdict.Pass::new);
    }
}
