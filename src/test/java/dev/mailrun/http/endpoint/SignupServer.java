package dev.mailrun.http.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.audience.signup.ProofOfWork;
import dev.mailrun.campaign.audience.signup.SignupGuard;
import dev.mailrun.campaign.audience.signup.Signups;
import dev.mailrun.campaign.unsubscribe.SigningKey;
import dev.mailrun.campaign.unsubscribe.SignupTokens;
import dev.mailrun.http.server.HttpLimits;
import dev.mailrun.http.server.HttpServer;
import dev.mailrun.http.server.Listener;
import dev.mailrun.http.server.PageLook;
import dev.mailrun.http.server.PublicPage;
import dev.mailrun.http.server.Route;
import dev.mailrun.http.server.TrustedProxies;
import dev.mailrun.mail.message.Mailbox;
import dev.mailrun.testing.AudienceFixtures;
import dev.mailrun.testing.PublicWiring;
import dev.mailrun.testing.SettableClock;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * The public listener with the sign-up routes, as a worker wires them, over a real socket, a real
 * database and a real SMTP server; and the requests the sign-up tests make of it. The guard is
 * {@link PublicWiring#RULES}.
 */
final class SignupServer implements AutoCloseable {

    static final String SECRET = "0123456789abcdef0123456789abcdef-signup";
    private static final Pattern FORM_TOKEN = Pattern.compile("name=\"form_token\" value=\"([^\"]+)\"");

    private final DataSource ds;
    private final SettableClock clock;
    private final HttpServer server;
    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    final String base;

    /** @param proof the proof of work each sign-up must carry; empty: none */
    SignupServer(DataSource ds, int smtpPort, SettableClock clock, Optional<ProofOfWork> proof) throws Exception {
        this.ds = ds;
        this.clock = clock;
        SigningKey key = SigningKey.of(SECRET);
        SignupTokens tokens = PublicWiring.signupTokens(key, clock);
        HttpServer probe = HttpServer.start(List.of(Listener.open("public", "127.0.0.1", 0, List.of())), Duration.ofSeconds(2),
                HttpLimits.DEFAULTS);
        int port = probe.port();
        probe.close();
        // The confirmation links are made on the server's own address: start it on a port known beforehand.
        base = "http://127.0.0.1:" + port;
        Signups signups = PublicWiring.signups(ds, clock, tokens, smtpPort, new Mailbox("news@example.com", "Example News"),
                URI.create(base), "v2");
        SignupGuard guard = PublicWiring.guard(tokens, proof, clock);
        PublicPage shell = new PublicPage(PageLook.DEFAULTS);
        List<Route> routes = new ArrayList<>(List.of(PublicRoutes.signup(signups, guard, shell, TrustedProxies.NONE),
                PublicRoutes.confirm(signups, shell)));
        proof.ifPresent(p -> routes.add(PublicRoutes.challenge(guard, shell)));
        server = HttpServer.start(List.of(Listener.open("public", "127.0.0.1", port, routes)), Duration.ofSeconds(2),
                HttpLimits.DEFAULTS);
    }

    /** Shows the form at {@code path}, waits past the minimum fill time, and posts it with these fields added. */
    HttpResponse<String> signUp(String path, String email, String name, long list, String... more) throws Exception {
        String token = formToken(path);
        clock.advance(Duration.ofSeconds(5));
        List<String> fields = new ArrayList<>(List.of("form_token", token, "email", email, "name", name, "list", Long.toString(list)));
        fields.addAll(List.of(more));
        return post(base + path, form(fields.toArray(String[]::new)));
    }

    String formToken(String path) throws Exception {
        HttpResponse<String> page = get(base + path);
        Matcher m = FORM_TOKEN.matcher(page.body());
        assertThat(m.find()).as("a form token on " + path + ": " + page.body()).isTrue();
        return m.group(1);
    }

    static String form(String... pairs) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < pairs.length; i += 2) {
            b.append(b.isEmpty() ? "" : "&").append(URLEncoder.encode(pairs[i], StandardCharsets.UTF_8)).append('=')
                    .append(URLEncoder.encode(pairs[i + 1], StandardCharsets.UTF_8));
        }
        return b.toString();
    }

    HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> post(String url, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The subscription's status of {@code email} on {@code list}; "none" without one. */
    String status(String email, long list) throws Exception {
        return AudienceFixtures.subscriptionStatus(ds, email, list);
    }

    @Override
    public void close() {
        server.close();
    }
}
