package dev.mailrun.http.console;

import dev.mailrun.campaign.model.ApiScope;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One page or action of the console: method, path (a regular expression below {@code /console},
 * its groups the variables), the scope it needs — the API's scopes, so a token can do here exactly
 * what it can do through the API — and, for a change, the name the audit trail records it under.
 */
record ConsoleRoute(String method, Pattern path, ApiScope scope, Optional<String> audited, Page page) {

    @FunctionalInterface
    interface Page {
        Answer handle(ConsoleRequest request) throws Exception;
    }

    static ConsoleRoute get(String path, ApiScope scope, Page page) {
        return new ConsoleRoute("GET", Pattern.compile(path), scope, Optional.empty(), page);
    }

    static ConsoleRoute post(String path, ApiScope scope, String audited, Page page) {
        return new ConsoleRoute("POST", Pattern.compile(path), scope, Optional.of(audited), page);
    }

    Optional<Matcher> match(String pathBelowConsole) {
        Matcher m = path.matcher(pathBelowConsole);
        return m.matches() ? Optional.of(m) : Optional.empty();
    }
}
