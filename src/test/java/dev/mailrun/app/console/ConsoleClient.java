package dev.mailrun.app.console;

import dev.mailrun.app.AppContext;
import dev.mailrun.app.HttpEndpoint;
import dev.mailrun.app.ProductionLinks;
import dev.mailrun.app.Services;
import dev.mailrun.campaign.model.ApiScope;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * The worker's HTTP endpoint started from configuration as {@code mailrun worker} starts it, and a
 * plain HTTP client for its console that keeps no cookies of its own: each test says which it sends.
 */
final class ConsoleClient implements AutoCloseable {

    static final String ADMIN_TOKEN = "admin-token-for-console-tests-0123";
    private static final Pattern CSRF = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");

    final AppContext ctx;
    final Services services;
    final HttpEndpoint endpoint;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    ConsoleClient(Map<String, String> env, Clock clock) throws IOException {
        env.put("MAILRUN_HTTP_PORT", Integer.toString(freePort()));
        env.put("MAILRUN_ADMIN_PORT", Integer.toString(freePort()));
        env.putIfAbsent("MAILRUN_ADMIN_TOKEN", ADMIN_TOKEN);
        this.ctx = AppContext.load(Optional.empty(), env, clock);
        this.services = new Services(ctx, ProductionLinks::of);
        this.endpoint = HttpEndpoint.start(services, true);
    }

    String base() {
        return "http://127.0.0.1:" + endpoint.adminPort().orElseThrow();
    }

    String token(String name, ApiScope... scopes) {
        try {
            return services.apiTokens().create(name, Set.of(scopes));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A draft campaign of the newsletter template, created through the API; its id. */
    long campaign(String name) {
        return campaign(name, "");
    }

    /** As {@link #campaign(String)}, with more of the API's fields ({@code ,"variants":[…]}). */
    long campaign(String name, String moreFields) {
        String json = "{\"name\":" + quoted(name) + ",\"template\":\"newsletter\",\"from\":\"news@sender.example\"" + moreFields + "}";
        HttpResponse<String> r = send(null, HttpRequest.newBuilder(URI.create(base() + "/api/v1/campaigns"))
                .header("Authorization", "Bearer " + ADMIN_TOKEN).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
        Matcher m = Pattern.compile("\"id\":(\\d+)[,}]").matcher(r.body());
        if (r.statusCode() != 201 || !m.find()) {
            throw new AssertionError("create answered " + r.statusCode() + ": " + r.body());
        }
        return Long.parseLong(m.group(1));
    }

    /** Imports {@code csv} into campaign {@code id} through the API; the import report as JSON text. */
    String importThroughApi(long id, java.nio.file.Path csv) throws java.io.FileNotFoundException {
        HttpResponse<String> r = send(null, HttpRequest.newBuilder(URI.create(base() + "/api/v1/campaigns/" + id + "/recipients/import"))
                .header("Authorization", "Bearer " + ADMIN_TOKEN).header("Content-Type", "text/csv")
                .POST(HttpRequest.BodyPublishers.ofFile(csv)));
        if (r.statusCode() != 200) {
            throw new AssertionError("import answered " + r.statusCode() + ": " + r.body());
        }
        return r.body();
    }

    /** The console's rows of the API audit trail, oldest first: {@code name action path status}. */
    static List<String> audit(DataSource ds) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = ds.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT token_name, action, target, status FROM api_audit "
                     + "WHERE target LIKE '/console/%' ORDER BY id")) {
            while (rs.next()) {
                rows.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getString(3) + " " + rs.getInt(4));
            }
        }
        return rows;
    }

    private static String quoted(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /** Logs in with {@code token}; the session cookie's value. */
    String login(String token) {
        HttpResponse<String> r = loginForm(token);
        if (r.statusCode() != 303) {
            throw new AssertionError("login answered " + r.statusCode() + ": " + r.body());
        }
        return cookieValue(r.headers().firstValue("Set-Cookie").orElseThrow());
    }

    /** Posts the login form as a browser does: with the form's token in the form and in its cookie. */
    HttpResponse<String> loginForm(String token) {
        HttpResponse<String> form = get(null, "/console/login");
        String cookie = cookieValue(form.headers().firstValue("Set-Cookie").orElseThrow());
        Matcher m = Pattern.compile("name=\"login\" value=\"([^\"]+)\"").matcher(form.body());
        if (!m.find()) {
            throw new AssertionError("no form token on the login page");
        }
        return post(null, "/console/login", Map.of("token", token, "login", m.group(1)), "Cookie", "mailrun_login=" + cookie);
    }

    static String cookieValue(String setCookie) {
        return setCookie.substring(setCookie.indexOf('=') + 1, setCookie.indexOf(';'));
    }

    /** The CSRF token on the page at {@code path}, as the session sees it. */
    String csrf(String session, String path) {
        Matcher m = CSRF.matcher(get(session, path).body());
        if (!m.find()) {
            throw new AssertionError("no CSRF token on " + path);
        }
        return m.group(1);
    }

    HttpResponse<String> get(String session, String path, String... headers) {
        return send(session, HttpRequest.newBuilder(URI.create(base() + path)).GET(), headers);
    }

    /** A form's POST as a browser sends it: naming the console's origin, unless {@code headers} say where it came from. */
    HttpResponse<String> post(String session, String path, Map<String, String> form, String... headers) {
        return postAsIs(session, path, form, fromConsole(headers));
    }

    /** A form's POST with exactly {@code headers}: no Origin of its own. */
    HttpResponse<String> postAsIs(String session, String path, Map<String, String> form, String... headers) {
        String body = form.entrySet().stream().map(e -> enc(e.getKey()) + "=" + enc(e.getValue())).collect(Collectors.joining("&"));
        return send(session, HttpRequest.newBuilder(URI.create(base() + path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)), headers);
    }

    /** {@code headers} with {@code Origin: <the console>} added when none of them says where the request came from. */
    private String[] fromConsole(String... headers) {
        for (int i = 0; i < headers.length; i += 2) {
            if (java.util.Set.of("origin", "referer", "sec-fetch-site").contains(headers[i].toLowerCase(java.util.Locale.ROOT))) {
                return headers;
            }
        }
        String[] with = java.util.Arrays.copyOf(headers, headers.length + 2);
        with[headers.length] = "Origin";
        with[headers.length + 1] = base();
        return with;
    }

    /** A multipart form as a browser sends a file input: {@code fields}, then {@code csv} as the part "file". */
    HttpResponse<String> upload(String session, String path, Map<String, String> fields, String csv) {
        String boundary = "----console-test-boundary";
        StringBuilder body = new StringBuilder();
        fields.forEach((k, v) -> body.append("--").append(boundary).append("\r\nContent-Disposition: form-data; name=\"")
                .append(k).append("\"\r\n\r\n").append(v).append("\r\n"));
        body.append("--").append(boundary).append("\r\nContent-Disposition: form-data; name=\"file\"; filename=\"list.csv\"\r\n")
                .append("Content-Type: text/csv\r\n\r\n").append(csv).append("\r\n--").append(boundary).append("--\r\n");
        return send(session, HttpRequest.newBuilder(URI.create(base() + path))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())), fromConsole());
    }

    private HttpResponse<String> send(String session, HttpRequest.Builder b, String... headers) {
        b.timeout(Duration.ofSeconds(60));
        if (session != null) {
            b.header("Cookie", "mailrun_console=" + session);
        }
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        try {
            return http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() {
        endpoint.close();
        services.close();
        ctx.close();
    }
}
