package dev.mailrun.http.console;

import dev.mailrun.campaign.model.ApiScope;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One page or action of the console: method, path (a regular expression below {@code /console},
 * its groups the variables), the scope it needs — the API's scopes, so a token can do here exactly
 * what it can do through the API — for a change, the name the audit trail records it under, and for
 * a POST the largest form it reads.
 */
record ConsoleRoute(String method, Pattern path, ApiScope scope, Optional<String> audited, int maxFormBytes, Page page) {

    @FunctionalInterface
    interface Page {
        Answer handle(ConsoleRequest request) throws Exception;
    }

    static ConsoleRoute get(String path, ApiScope scope, Page page) {
        return new ConsoleRoute("GET", Pattern.compile(path), scope, Optional.empty(), 0, page);
    }

    static ConsoleRoute post(String path, ApiScope scope, String audited, Page page) {
        return post(path, scope, audited, ConsoleHandler.MAX_FORM_BYTES, page);
    }

    /** A change whose form may be larger than most (a template's text). */
    static ConsoleRoute post(String path, ApiScope scope, String audited, int maxFormBytes, Page page) {
        return new ConsoleRoute("POST", Pattern.compile(path), scope, Optional.of(audited), maxFormBytes, page);
    }

    /**
     * A POST that changes nothing, so the audit trail does not record it: a form whose values are too
     * large for a query (a template's text to preview). It carries the CSRF token as every POST does.
     */
    static ConsoleRoute reading(String path, ApiScope scope, int maxFormBytes, Page page) {
        return new ConsoleRoute("POST", Pattern.compile(path), scope, Optional.empty(), maxFormBytes, page);
    }

    Optional<Matcher> match(String pathBelowConsole) {
        Matcher m = path.matcher(pathBelowConsole);
        return m.matches() ? Optional.of(m) : Optional.empty();
    }
}
