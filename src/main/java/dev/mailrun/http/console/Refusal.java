package dev.mailrun.http.console;

/**
 * A change the operator's API refused (a campaign not in a state for it, a reason missing): the
 * handler shows {@link #getMessage()} on the page at {@link #back()} and records it in the audit trail.
 */
final class Refusal extends Exception {

    private final String back;

    /** @param back the console path (below /console) to show the message on */
    Refusal(String back, String message) {
        super(message, null, false, false);
        this.back = back;
    }

    String back() {
        return back;
    }
}
