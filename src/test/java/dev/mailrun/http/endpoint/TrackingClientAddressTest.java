package dev.mailrun.http.endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.campaign.model.TrackingClass;
import dev.mailrun.campaign.model.TrackingMode;
import dev.mailrun.campaign.store.TrackedLinkTable;
import dev.mailrun.campaign.tracking.MachineList;
import dev.mailrun.campaign.tracking.Tracker;
import dev.mailrun.campaign.tracking.TrackingListener;
import dev.mailrun.campaign.tracking.TrackingSettings;
import dev.mailrun.campaign.unsubscribe.SigningKey;
import dev.mailrun.campaign.unsubscribe.TrackingTokens;
import dev.mailrun.db.Transactions;
import dev.mailrun.http.server.HttpLimits;
import dev.mailrun.http.server.HttpServer;
import dev.mailrun.http.server.Listener;
import dev.mailrun.http.server.PageLook;
import dev.mailrun.http.server.PublicPage;
import dev.mailrun.http.server.TrustedProxies;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Whose address classifies a tracking request (tracking.trusted-proxies), over real HTTP: an open
 * forwarded for an address in Apple's network is a machine open only when every hop between it
 * and mailrun is a trusted proxy; otherwise X-Forwarded-For is not believed and the browser's open
 * counts as a person's.
 */
class TrackingClientAddressTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final String CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
            + "Chrome/124.0.0.0 Safari/537.36";
    private static final String APPLE = "17.58.1.2";
    private static final String SECRET = "a-test-secret-that-is-long-enough-0123456789";

    private final SettableClock clock = SettableClock.at("2026-11-26T10:00:00Z");
    private final HttpClient http = HttpClient.newHttpClient();
    private final List<TrackingClass> classes = new CopyOnWriteArrayList<>();

    @Test
    void forwarded_for_is_read_only_from_trusted_proxies_and_from_the_right() throws Exception {
        assertThat(classOf("", List.of(APPLE))).as("no trusted proxies: the header is not read").isEqualTo(TrackingClass.HUMAN);
        assertThat(classOf("10.0.0.0/8", List.of(APPLE))).as("the peer 127.0.0.1 is not trusted").isEqualTo(TrackingClass.HUMAN);
        assertThat(classOf("127.0.0.1/32", List.of(APPLE))).isEqualTo(TrackingClass.MACHINE_OPEN);
        assertThat(classOf("127.0.0.1", List.of(APPLE + ", 198.51.100.7")))
                .as("what the client wrote left of the address the proxy saw is never read").isEqualTo(TrackingClass.HUMAN);
        assertThat(classOf("127.0.0.0/8, 10.0.0.0/8", List.of(APPLE + ", 10.1.2.3")))
                .as("through two trusted proxies").isEqualTo(TrackingClass.MACHINE_OPEN);
        assertThat(classOf("127.0.0.0/8, 10.0.0.0/8", List.of(APPLE, "10.1.2.3")))
                .as("the same on two header lines").isEqualTo(TrackingClass.MACHINE_OPEN);
        assertThat(classOf("127.0.0.0/8, 10.0.0.0/8", List.of(APPLE + ", 192.0.2.1, 10.1.2.3")))
                .as("an untrusted hop in between ends the walk").isEqualTo(TrackingClass.HUMAN);
        assertThat(classOf("127.0.0.1", List.of("t.example.com"))).as("not an address: the client is unknown, the open a person's")
                .isEqualTo(TrackingClass.HUMAN);
    }

    /** The class of one open of a browser sent from 127.0.0.1 with these X-Forwarded-For lines, behind {@code trusted}. */
    private TrackingClass classOf(String trusted, List<String> forwardedFor) throws Exception {
        long campaign = CampaignFixtures.campaign(db.dataSource(), "Proxies " + trusted + forwardedFor);
        CampaignFixtures.recipients(db.dataSource(), campaign, 1);
        long recipient;
        try (var c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT id FROM recipient WHERE campaign_id = ?")) {
            ps.setLong(1, campaign);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                recipient = rs.getLong(1);
            }
        }
        Transactions.inTransaction(db.dataSource(), c -> {
            new TrackedLinkTable().setMode(c, campaign, new TrackingMode(true, false), clock.instant());
            return null;
        });
        Tracker tracker = new Tracker(db.dataSource(), clock, new TrackingSettings(URI.create("https://t.example"), true,
                Duration.ofDays(1), Duration.ofSeconds(10), Set.of(), 100), MachineList.shipped(), new Recording());
        TrackingTokens tokens = new TrackingTokens(SigningKey.of(SECRET));
        classes.clear();
        try (HttpServer server = HttpServer.start(List.of(Listener.open("public", "127.0.0.1", 0,
                List.of(PublicRoutes.trackedOpens(tokens, tracker, TrustedProxies.parse(trusted), new PublicPage(PageLook.DEFAULTS))))), Duration.ofSeconds(2),
                HttpLimits.DEFAULTS)) {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/o/"
                    + tokens.openToken(campaign, recipient) + ".gif")).header("User-Agent", CHROME);
            forwardedFor.forEach(v -> b.header("X-Forwarded-For", v));
            HttpResponse<byte[]> r = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(r.statusCode()).isEqualTo(200);
        }
        assertThat(classes).hasSize(1);
        return classes.get(0);
    }

    private final class Recording implements TrackingListener {
        @Override
        public void tracked(boolean click, TrackingClass trackingClass) {
            classes.add(trackingClass);
        }

        @Override
        public void dropped() {
        }
    }
}
