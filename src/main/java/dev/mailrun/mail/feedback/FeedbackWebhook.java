package dev.mailrun.mail.feedback;

import java.util.Optional;

/**
 * One provider's event webhook: checks that a request is genuine and fresh, and reads its events.
 * Implementations never throw for what a request contains; every refusal is a {@link Verdict.Refused}.
 */
public interface FeedbackWebhook {

    Provider provider();

    Verdict receive(WebhookRequest request);

    /** The {@code WWW-Authenticate} challenge of an unauthenticated answer, for HTTP basic authentication. */
    default Optional<String> challenge() {
        return Optional.empty();
    }
}
