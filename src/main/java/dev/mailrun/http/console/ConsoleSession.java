package dev.mailrun.http.console;

import dev.mailrun.campaign.access.ApiTokens;
import dev.mailrun.campaign.audience.SubscriberImportReport;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.mail.template.TemplateSource;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One login: who (the API token's name and scopes, as at login), the CSRF token every form of the
 * session carries, when the session was last used (its idle timeout counts from there), the
 * message the next page shows, the session's last import (its report and rejects file) and last import into
 * a list (its report), and the template text it last previewed (what the preview's frame renders: too
 * large for the frame's URL).
 */
final class ConsoleSession {

    private final String id;
    private final ApiTokens.Caller caller;
    private final String csrf;
    private final Instant createdAt;
    private volatile Instant lastSeen;
    private final AtomicReference<Flash> flash = new AtomicReference<>();
    private final AtomicReference<ImportPage.Done> lastImport = new AtomicReference<>();
    private final AtomicReference<SubscriberImportReport> lastListImport = new AtomicReference<>();
    private final AtomicReference<TemplateSource> draft = new AtomicReference<>();

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

    /** The report of this login's last import into a list; null before the first. */
    SubscriberImportReport lastListImport() {
        return lastListImport.get();
    }

    void lastListImport(SubscriberImportReport report) {
        lastListImport.set(report);
    }

    /** The template text this login last previewed, when it is of template {@code name}. */
    Optional<TemplateSource> draft(String name) {
        return Optional.ofNullable(draft.get()).filter(d -> d.name().equals(name));
    }

    /** Keeps {@code source} as the text this login previews, replacing the one before: one per login. */
    void draft(TemplateSource source) {
        draft.set(source);
    }

    boolean may(ApiScope scope) {
        return scope.grantedBy(caller.scopes());
    }
}
