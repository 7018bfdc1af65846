package dev.mailrun.campaign.tracking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.model.TrackingClass;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * One test per rule, with requests shaped as the providers describe them: Apple (Mail Privacy
 * Protection loads remote content through Apple's proxy servers, from Apple's 17.0.0.0/8, with a
 * bare "Mozilla/5.0"), Google (Gmail serves images "via ggpht.com GoogleImageProxy"), mail security
 * gateways (HEAD checks and their own agents, seconds after delivery).
 */
class ClassifierTest {

    static final String CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
            + "Chrome/124.0.0.0 Safari/537.36";
    static final String IPHONE_MAIL = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 "
            + "(KHTML, like Gecko) Mobile/15E148";
    static final String GMAIL_PROXY = "Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)";
    static final String APPLE_PROXY = "Mozilla/5.0";
    static final Instant DELIVERED = Instant.parse("2026-11-26T10:00:00Z");
    static final Instant LATER = DELIVERED.plus(Duration.ofMinutes(20));

    private final Classifier classifier = new Classifier(MachineList.shipped(), Duration.ofSeconds(10));

    private static Optional<InetAddress> ip(String literal) {
        return IpLiteral.parse(literal);
    }

    private TrackingClass click(boolean head, String ua, Instant at, Optional<Instant> other) {
        return classifier.classify(new TrackedRequest(head, true, ua, ip("203.0.113.9"), at, DELIVERED, other)).trackingClass();
    }

    private Classifier.Verdict open(String ua, String from) {
        return classifier.classify(new TrackedRequest(false, false, ua, ip(from), LATER, DELIVERED, Optional.empty()));
    }

    @Test
    void a_head_request_is_a_scanner_whatever_its_user_agent() {
        assertThat(click(true, CHROME, LATER, Optional.empty())).isEqualTo(TrackingClass.SCANNER);
        assertThat(classifier.classify(new TrackedRequest(true, false, CHROME, Optional.empty(), LATER, DELIVERED,
                Optional.empty())).trackingClass()).isEqualTo(TrackingClass.SCANNER);
    }

    @Test
    void a_known_scanner_user_agent_is_a_scanner() {
        assertThat(click(false, "Mozilla/5.0 (compatible; Barracuda Sentinel)", LATER, Optional.empty()))
                .isEqualTo(TrackingClass.SCANNER);
        assertThat(click(false, "python-requests/2.31.0", LATER, Optional.empty())).isEqualTo(TrackingClass.SCANNER);
    }

    @Test
    void apples_privacy_proxy_is_a_machine_open_by_its_network_or_its_bare_user_agent() {
        assertThat(open(APPLE_PROXY, "17.58.63.10")).isEqualTo(new Classifier.Verdict(TrackingClass.MACHINE_OPEN,
                Optional.of("apple-proxy")));
        assertThat(open(IPHONE_MAIL, "17.58.63.10").trackingClass()).isEqualTo(TrackingClass.MACHINE_OPEN);
        assertThat(open(APPLE_PROXY, "198.51.100.7").trackingClass()).isEqualTo(TrackingClass.MACHINE_OPEN);
    }

    /** Gmail fetches through its proxy when the person opens the message: an open, proxied (no device or place). */
    @Test
    void googles_image_proxy_is_a_persons_open_through_the_proxy() {
        assertThat(open(GMAIL_PROXY, "66.249.84.1")).isEqualTo(new Classifier.Verdict(TrackingClass.HUMAN,
                Optional.of("google-proxy")));
    }

    @Test
    void outlook_on_the_desktop_is_a_person() {
        String outlook = "Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17928; Pro)";
        assertThat(open(outlook, "198.51.100.7")).isEqualTo(new Classifier.Verdict(TrackingClass.HUMAN, Optional.of("outlook")));
        assertThat(click(false, outlook, LATER, Optional.empty())).isEqualTo(TrackingClass.HUMAN);
    }

    @Test
    void an_open_from_a_mail_client_outside_the_proxies_is_human() {
        assertThat(open(IPHONE_MAIL, "198.51.100.7")).isEqualTo(new Classifier.Verdict(TrackingClass.HUMAN,
                Optional.of("browser")));
    }

    @Test
    void a_click_within_the_scanner_window_of_delivery_is_a_scanner_and_after_it_a_person() {
        assertThat(click(false, CHROME, DELIVERED.plusSeconds(3), Optional.empty())).isEqualTo(TrackingClass.SCANNER);
        assertThat(click(false, CHROME, DELIVERED.plusSeconds(10), Optional.empty())).isEqualTo(TrackingClass.HUMAN);
    }

    @Test
    void a_second_link_of_one_message_within_a_second_is_a_scanner() {
        assertThat(click(false, CHROME, LATER, Optional.of(LATER.minusMillis(300)))).isEqualTo(TrackingClass.SCANNER);
        assertThat(click(false, CHROME, LATER, Optional.of(LATER.minusMillis(1500)))).isEqualTo(TrackingClass.HUMAN);
    }

    @Test
    void no_user_agent_or_an_unknown_tool_is_unknown() {
        assertThat(click(false, "", LATER, Optional.empty())).isEqualTo(TrackingClass.UNKNOWN);
        assertThat(click(false, "LinkChecker/9", LATER, Optional.empty())).isEqualTo(TrackingClass.UNKNOWN);
    }

    @Test
    void an_operators_list_replaces_the_shipped_one_and_a_bad_line_is_named() {
        MachineList own = MachineList.parse("own.txt", "# mine\nscanner-ua gw AcmeGateway\nopen-proxy-net corp 10.1.0.0/16\n");
        Classifier c = new Classifier(own, Duration.ZERO);

        assertThat(c.classify(new TrackedRequest(false, true, "AcmeGateway/1", Optional.empty(), LATER, DELIVERED,
                Optional.empty())).trackingClass()).isEqualTo(TrackingClass.SCANNER);
        assertThat(c.classify(new TrackedRequest(false, false, CHROME, ip("10.1.2.3"), LATER, DELIVERED,
                Optional.empty())).family()).contains("corp");
        assertThat(c.classify(new TrackedRequest(false, false, GMAIL_PROXY, ip("10.2.2.3"), LATER, DELIVERED,
                Optional.empty())).trackingClass()).as("not on the operator's list").isEqualTo(TrackingClass.HUMAN);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> MachineList.parse("own.txt", "open-proxy-net x cafe/8\n"))
                .hasMessage("own.txt:1: 'cafe/8' is not a network (CIDR such as 17.0.0.0/8)");
    }
}
