package dev.mailrun.http.console;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One request to a console page, as the page sees it: who (a live session, or none on the login page),
 * the path's variables, the query, and for a POST its form fields (the CSRF token already checked)
 * and the file uploaded with them, on disk.
 */
record ConsoleRequest(String method, String path, ConsoleSession session, List<String> vars,
                      Map<String, String> query, Map<String, String> form, boolean secure, Optional<Path> upload) {

    ConsoleRequest(String method, String path, ConsoleSession session, List<String> vars, Map<String, String> query,
                   Map<String, String> form, boolean secure) {
        this(method, path, session, vars, query, form, secure, Optional.empty());
    }

    /** The path's {@code i}th variable as an id; a path only routes here when it is digits. */
    long id(int i) {
        return Long.parseLong(vars.get(i));
    }

    Optional<String> param(String name) {
        return Optional.ofNullable(query.get(name)).filter(v -> !v.isBlank());
    }

    /** A form field, stripped; empty when missing or blank. */
    Optional<String> field(String name) {
        return Optional.ofNullable(form.get(name)).map(String::strip).filter(v -> !v.isEmpty());
    }
}
