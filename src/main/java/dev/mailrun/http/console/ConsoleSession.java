package dev.mailrun.http.console;

import dev.mailrun.campaign.access.ApiTokens;
import dev.mailrun.campaign.model.ApiScope;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One login: who (the API token's name and scopes, as at login), the CSRF token every form of the
 * session carries, when the session was last used (its idle timeout counts from there), the
 * message the next page shows, and the session's last import (its report and rejects file).
 */
final class ConsoleSession {

    private final String id;
    private final ApiTokens.Caller caller;
    private final String csrf;
    private final Instant createdAt;
    private volatile Instant lastSeen;
    private final AtomicReference<Flash> flash = new AtomicReference<>();
    private final AtomicReference<ImportPage.Done> lastImport = new AtomicReference<>();

    /** What the page after a change tells: done, or refused and why (Post/Redirect/Get carries it here). */
    record Flash(boolean error, String text) {}

    ConsoleSession(String id, ApiTokens.Caller caller, String csrf, Instant createdAt) {
        this.id = id;
        this.caller = caller;
        this.csrf = csrf;
        this.createdAt = createdAt;
        this.lastSeen = createdAt;
    }

    String id() {
        return id;
    }

    ApiTokens.Caller caller() {
        return caller;
    }

    String csrf() {
        return csrf;
    }

    Instant createdAt() {
        return createdAt;
    }

    Instant lastSeen() {
        return lastSeen;
    }

    void seen(Instant at) {
        lastSeen = at;
    }

    void flash(boolean error, String text) {
        flash.set(new Flash(error, text));
    }

    /** The message for the next page, once. */
    Flash takeFlash() {
        return flash.getAndSet(null);
    }

    ImportPage.Done lastImport() {
        return lastImport.get();
    }

    /** Keeps {@code done} as the login session's last import; the one it replaces. */
    ImportPage.Done lastImport(ImportPage.Done done) {
        return lastImport.getAndSet(done);
    }

    boolean may(ApiScope scope) {
        return scope.grantedBy(caller.scopes());
    }
}
