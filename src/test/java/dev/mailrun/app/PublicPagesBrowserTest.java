package dev.mailrun.app;

import static dev.mailrun.testing.ConsoleBrowser.navigate;
import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.campaign.audience.Lists;
import dev.mailrun.campaign.audience.SubscriberForm;
import dev.mailrun.campaign.audience.signup.ConsentRecords;
import dev.mailrun.campaign.model.ListOptIn;
import dev.mailrun.campaign.model.ListVisibility;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.model.SubscriptionSource;
import dev.mailrun.campaign.unsubscribe.PreferenceTokens;
import dev.mailrun.campaign.unsubscribe.SigningKey;
import dev.mailrun.http.server.PageTexts;
import dev.mailrun.scheduler.Scheduler;
import dev.mailrun.testing.AudienceFixtures;
import dev.mailrun.testing.ConsoleBrowser;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import jakarta.mail.Message;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The public pages in headless Chromium at a phone's width (390 × 844), against the public listener
 * as {@code mailrun worker} builds it from configuration ({@link HttpEndpoint}, sign-up enabled), the
 * real database and GreenMail as the relay: a person fills the sign-up form of two lists and sends it
 * with Enter, the confirmation arrives, its link confirms; a campaign message's {@code {{ preferences_url }}}
 * opens the preference centre, where one list is left and then all; a campaign to those lists then
 * leaves the person out and takes the subscriber who stayed. A filled honeypot and a flood past the
 * per-address limit send nothing; a German list's form is German, and so is the preference centre for a
 * browser asking for German. Every page must fit the window
 * without horizontal scrolling. Elements are found by the forms' stable field names and action
 * values, texts compared with the pages' own resource bundles, never with words written here.
 * Skipped, with one line, where chromium or chromedriver is not installed.
 */
class PublicPagesBrowserTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    /** Long, as real addresses can be, and with no hyphen or space where a line could break. */
    private static final String PERSON = "konstantinos.papadopoulos@universitaetsklinikum.example";
    private static final String BOB = "bob@example.com";
    private static final int PHONE_WIDTH = 390;
    /** More than the guard's minimum fill time (3 s): the clock moves instead of the test waiting. */
    private static final Duration FILLING = Duration.ofSeconds(5);

    @TempDir
    static Path dir;

    private static ConsoleBrowser browser;
    private static ChromeDriver d;

    // Near the database's clock and at a slot's start, so that a started campaign sends in the next tick.
    private final SettableClock clock = SettableClock.steppingAtSlotStart(WorkerEnv.TICK);
    private Map<String, String> env;
    private PublicListener listener;
    private Services services;
    private String base;
    private long news;
    private long offers;

    @BeforeAll
    static void browser() throws Exception {
        Optional<String[]> found = ConsoleBrowser.installed();
        Assumptions.assumeTrue(found.isPresent(), "no chromium and chromedriver installed: the public pages browser test is skipped");
        browser = ConsoleBrowser.start(found.get(), dir.resolve("profile"), dir);
        d = browser.driver;
        d.manage().window().setSize(new Dimension(PHONE_WIDTH, 844));
        // The campaign template: a message to lists with its recipient's preference centre link.
        Path prefs = Files.createDirectories(dir.resolve("templates").resolve("prefs"));
        Files.writeString(prefs.resolve("subject.txt"), "Our news");
        Files.writeString(prefs.resolve("body.txt"), "Your preferences: {{ preferences_url }}\nUnsubscribe: {{ unsubscribe_url }}\n");
        Files.writeString(prefs.resolve("body.html"), "<p><a href=\"{{ preferences_url }}\">Your preferences</a>"
                + " <a href=\"{{ unsubscribe_url }}\">Unsubscribe</a></p>\n");
    }

    @AfterAll
    static void closeBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    @BeforeEach
    void start() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            // The tasks of campaigns another test started would send in this test's ticks.
            s.execute("UPDATE task SET enabled = 0");
            for (String table : List.of("campaign_list", "subscriber", "subscriber_list", "suppression")) {
                s.execute("DELETE FROM " + table);
            }
        }
        env = WorkerEnv.of(db, greenMail.getSmtp().getPort());
        env.put("MAILRUN_TEMPLATES_DIR", dir.resolve("templates").toString());
        env.put("MAILRUN_SIGNUP_ENABLED", "true");
        env.put("MAILRUN_SIGNUP_FROM", "Example News <news@sender.example>");
        env.put("MAILRUN_SIGNUP_ADDRESS_LIMIT", "2");
        listener = PublicListener.start(env, clock);
        services = listener.services;
        base = listener.base;
        Lists lists = services.audience().lists();
        news = lists.create(new Lists.NewList("news", Optional.of("Our weekly news"), ListVisibility.PUBLIC, ListOptIn.DOUBLE)).id();
        offers = lists.create(new Lists.NewList("offers", Optional.empty(), ListVisibility.PUBLIC, ListOptIn.SINGLE)).id();
    }

    @AfterEach
    void stop() {
        if (listener != null) {
            listener.close();
        }
    }

    @Test
    void a_person_signs_up_confirms_by_the_mailed_link_leaves_in_the_preference_centre_and_a_campaign_honours_it() throws Exception {
        d.get(base + "/subscribe");
        assertThat(((Number) d.executeScript("return window.innerWidth")).intValue()).as("the window's width").isEqualTo(PHONE_WIDTH);
        fitsThePhone("the sign-up form", 200);
        d.findElement(By.name("email")).sendKeys(PERSON);
        d.findElement(By.name("name")).sendKeys("Konstantinos");
        listBox(news).click();
        listBox(offers).click();
        assertThat(listBox(news).isSelected() && listBox(offers).isSelected()).as("both lists ticked").isTrue();
        clock.advance(FILLING);
        navigate(d, () -> d.findElement(By.name("name")).sendKeys(Keys.ENTER));

        fitsThePhone("the sign-up's answer", 200);
        assertThat(heading()).isEqualTo(en().text("signup.done.title"));
        assertThat(status(PERSON, news)).as("the double opt-in list waits for the link").isEqualTo("unconfirmed");
        assertThat(status(PERSON, offers)).as("the single opt-in list").isEqualTo("confirmed");
        assertThat(sql("SELECT name FROM subscriber WHERE email = '" + PERSON + "'")).as("the name typed").containsExactly("Konstantinos");

        MimeMessage confirmation = awaitMail(PERSON, 1).get(0);
        String confirm = path(confirmation, "/confirm/");
        d.get(base + confirm);
        fitsThePhone("the confirmation page", 200);
        assertThat(status(PERSON, news)).as("opening the link changes nothing").isEqualTo("unconfirmed");
        navigate(d, By.cssSelector("form[method=post] button[type=submit]"));
        fitsThePhone("the confirmed page", 200);
        assertThat(heading()).isEqualTo(en().text("confirm.done.title"));
        assertThat(status(PERSON, news)).isEqualTo("confirmed");
        assertThat(status(PERSON, offers)).isEqualTo("confirmed");

        // Bob stays on offers throughout: the campaign after the person has left must still take him.
        services.audience().subscribers().upsert(new SubscriberForm(BOB, Optional.empty(), Optional.empty(), List.of("offers")),
                SubscriptionSource.OPERATOR);
        long sent = listCampaign("Before");
        assertThat(recipients(sent)).as("while subscribed, the person is a recipient").containsExactly(BOB, PERSON);
        try (Scheduler scheduler = services.scheduler()) {
            scheduler.tick();
        }
        MimeMessage campaignMessage = awaitMail(PERSON, 2).get(1);
        String preferences = path(campaignMessage, "/p/");

        // The message's one-click unsubscribe link, opened by a person: a question and a button, nothing changed yet.
        d.get(base + path(campaignMessage, "/u/"));
        fitsThePhone("the unsubscribe page", 200);
        assertThat(d.findElements(By.cssSelector("form[method=post] button[type=submit]"))).hasSize(1);
        assertThat(status(PERSON, offers)).isEqualTo("confirmed");

        d.get(base + preferences);
        fitsThePhone("the preference centre", 200);
        assertThat(listBox(news).isSelected() && listBox(offers).isSelected()).as("both lists shown as joined").isTrue();
        listBox(offers).click();
        navigate(d, By.cssSelector("button[name=action][value=save]"));
        fitsThePhone("the preference centre after saving", 200);
        assertThat(status(PERSON, news)).isEqualTo("confirmed");
        assertThat(status(PERSON, offers)).isEqualTo("unsubscribed");
        assertThat(listBox(offers).isSelected()).as("the page shows offers left").isFalse();
        assertThat(listBox(news).isSelected()).as("the page shows news kept").isTrue();

        navigate(d, By.cssSelector("button[name=action][value=leave-all]"));
        fitsThePhone("the preference centre after leaving all", 200);
        assertThat(status(PERSON, news)).isEqualTo("unsubscribed");
        assertThat(status(PERSON, offers)).isEqualTo("unsubscribed");

        long after = listCampaign("After");
        assertThat(recipients(after)).as("the campaign after the person left every list").containsExactly(BOB);
    }

    @Test
    void a_filled_honeypot_sends_nothing_and_a_flood_past_the_address_limit_gets_429_and_no_mail() throws Exception {
        String bot = "bot@example.com";
        d.get(base + "/subscribe/news");
        fitsThePhone("the form of one list", 200);
        d.findElement(By.name("email")).sendKeys(bot);
        // Hidden from people (off-screen, aria-hidden, out of the tab order): only a script fills it.
        d.executeScript("document.querySelector('input[name=website]').value = 'https://spam.example'");
        clock.advance(FILLING);
        navigate(d, By.cssSelector("form button[type=submit]"));
        assertThat(heading()).as("a bot is answered as a person is").isEqualTo(en().text("signup.done.title"));
        assertThat(sql("SELECT email FROM subscriber")).as("nothing stored for the bot").isEmpty();

        String flood = "flood@example.com";
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            d.get(base + "/subscribe/news");
            d.findElement(By.name("email")).sendKeys(flood);
            clock.advance(FILLING);
            navigate(d, By.cssSelector("form button[type=submit]"));
            statuses.add(responseStatus());
            if (i < 2) {
                // Each sign-up of a pending address mails a new link; the bot's mail, had there been one, came first.
                assertThat(awaitMail(flood, i + 1)).hasSize(i + 1);
            }
        }
        assertThat(statuses).as("the address limit is 2").containsExactly(200, 200, 429);
        fitsThePhone("the 429 page", 429);
        assertThat(heading()).isEqualTo(en().text("signup.limited.title"));
        assertThat(recipientsOf(greenMail.getReceivedMessages())).as("no mail for the bot, none for the sign-up over the limit")
                .containsExactly(flood, flood);
    }

    @Test
    void a_german_lists_form_and_answer_are_german() throws Exception {
        services.audience().lists().create(new Lists.NewList("nachrichten", Optional.empty(), ListVisibility.PUBLIC, ListOptIn.SINGLE));
        new ConsentRecords(services.dataSource()).language("nachrichten", Optional.of("de"));
        PageTexts de = PageTexts.of("de");

        d.get(base + "/subscribe/nachrichten");
        fitsThePhone("the German form", 200);
        assertThat(d.findElement(By.tagName("html")).getDomAttribute("lang")).isEqualTo("de");
        String submit = text(d.findElement(By.cssSelector("form button[type=submit]")));
        assertThat(submit).isEqualTo(de.text("signup.submit")).isNotEqualTo(en().text("signup.submit"));
        assertThat(heading()).isEqualTo(de.text("signup.title.list", "nachrichten"));

        d.findElement(By.name("email")).sendKeys(PERSON);
        clock.advance(FILLING);
        navigate(d, By.cssSelector("form button[type=submit]"));
        fitsThePhone("the German answer", 200);
        assertThat(d.findElement(By.tagName("html")).getDomAttribute("lang")).isEqualTo("de");
        assertThat(heading()).isEqualTo(de.text("signup.done.title")).isNotEqualTo(en().text("signup.done.title"));
        assertThat(sql("SELECT s.status FROM subscription s JOIN subscriber_list l ON l.id = s.list_id WHERE l.name = 'nachrichten'"))
                .containsExactly("confirmed");

        // The preference centre speaks the reader's language (no list speaks for a person on several).
        long campaign = services.campaigns().create(new NewCampaign("Nachrichten", "prefs", "news@sender.example",
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
        String token = new PreferenceTokens(SigningKey.of(WorkerEnv.UNSUBSCRIBE_SECRET), clock).token(PreferenceTokens.Kind.LINK,
                campaign, PERSON);
        d.executeCdpCommand("Network.enable", Map.of());
        d.executeCdpCommand("Network.setExtraHTTPHeaders", Map.of("headers", Map.of("Accept-Language", "de-DE,de;q=0.9")));
        try {
            d.get(base + PreferenceTokens.PATH_PREFIX + token);
            fitsThePhone("the German preference centre", 200);
            assertThat(heading()).isEqualTo(de.text("prefs.title")).isNotEqualTo(en().text("prefs.title"));
            navigate(d, By.cssSelector("button[name=action][value=leave-all]"));
            fitsThePhone("the German preference centre after leaving all", 200);
            assertThat(d.findElement(By.tagName("html")).getDomAttribute("lang")).isEqualTo("de");
            assertThat(heading()).isEqualTo(de.text("prefs.title"));
            assertThat(sql("SELECT s.status FROM subscription s JOIN subscriber_list l ON l.id = s.list_id WHERE l.name = 'nachrichten'"))
                    .containsExactly("unsubscribed");
        } finally {
            d.executeCdpCommand("Network.setExtraHTTPHeaders", Map.of("headers", Map.of()));
        }
    }

    /** The page answered {@code status} and is no wider than the window (no horizontal scrolling). */
    private void fitsThePhone(String page, int status) {
        assertThat(responseStatus()).as("%s: the status", page).isEqualTo(status);
        assertThat(ConsoleBrowser.overflow(d)).as("%s: pixels wider than the window", page).isLessThanOrEqualTo(0);
    }

    private static int responseStatus() {
        return ConsoleBrowser.responseStatus(d);
    }

    private static String heading() {
        return text(d.findElement(By.tagName("h1")));
    }

    /** The element's text as the page has it (not as a style may show it, in capitals say). */
    private static String text(WebElement e) {
        return e.getDomProperty("textContent").strip();
    }

    private static WebElement listBox(long list) {
        return d.findElement(By.cssSelector("input[name=list][value='" + list + "']"));
    }

    private static PageTexts en() {
        return PageTexts.of("en");
    }

    /** A campaign of the {@code prefs} template to news and offers, started as {@code campaign start} starts it; its id. */
    private long listCampaign(String name) throws Exception {
        long id = services.campaigns().create(new NewCampaign(name, "prefs", "news@sender.example", Optional.of("Example News"),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
        services.campaigns().targets().setLists(id, List.of("news", "offers"));
        services.campaigns().start(id);
        return id;
    }

    /** The messages to {@code to}, once there are {@code n}, oldest first. */
    private static List<MimeMessage> awaitMail(String address, int n) throws Exception {
        Awaitility.await("mail to " + address).atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50))
                .until(() -> mailTo(address).size() >= n);
        List<MimeMessage> received = mailTo(address);
        assertThat(received).as("mail to " + address).hasSize(n);
        return received;
    }

    private static List<MimeMessage> mailTo(String address) throws Exception {
        List<MimeMessage> found = new ArrayList<>();
        for (MimeMessage m : greenMail.getReceivedMessages()) {
            if (Arrays.stream(m.getRecipients(Message.RecipientType.TO)).anyMatch(a -> ((InternetAddress) a).getAddress()
                    .equalsIgnoreCase(address))) {
                found.add(m);
            }
        }
        return found;
    }

    private static List<String> recipientsOf(MimeMessage[] messages) throws Exception {
        List<String> all = new ArrayList<>();
        for (MimeMessage m : messages) {
            Arrays.stream(m.getRecipients(Message.RecipientType.TO)).forEach(a -> all.add(((InternetAddress) a).getAddress()));
        }
        return all;
    }

    /**
     * The path of the link under {@code prefix} in {@code message}, which is made on the public base URL
     * ({@code unsubscribe.base-url}, where a proxy would forward to the listener): the browser opens it on the listener.
     */
    private String path(MimeMessage message, String prefix) {
        String body = GreenMailUtil.getBody(message).replace("=\r\n", "");
        Matcher m = Pattern.compile(Pattern.quote(env.get("MAILRUN_UNSUBSCRIBE_BASE_URL") + prefix) + "[A-Za-z0-9_-]+").matcher(body);
        assertThat(m.find()).as("a link %s… in %s", prefix, body).isTrue();
        return m.group().substring(env.get("MAILRUN_UNSUBSCRIBE_BASE_URL").length());
    }

    private static String status(String email, long list) throws Exception {
        return AudienceFixtures.subscriptionStatus(db.dataSource(), email, list);
    }

    private static List<String> recipients(long campaign) throws Exception {
        return sql("SELECT email FROM recipient WHERE campaign_id = " + campaign + " ORDER BY email");
    }

    private static List<String> sql(String query) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query)) {
            while (rs.next()) {
                rows.add(rs.getString(1));
            }
        }
        return rows;
    }
}
