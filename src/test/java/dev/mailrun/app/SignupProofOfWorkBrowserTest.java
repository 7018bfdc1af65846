package dev.mailrun.app;

import static dev.mailrun.testing.ConsoleBrowser.navigate;
import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.campaign.audience.Lists;
import dev.mailrun.campaign.model.ListOptIn;
import dev.mailrun.campaign.model.ListVisibility;
import dev.mailrun.http.server.PageTexts;
import dev.mailrun.testing.AudienceFixtures;
import dev.mailrun.testing.ConsoleBrowser;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The sign-up form with {@code signup.proof-of-work=true}, as {@code mailrun worker} builds it from
 * configuration, in headless Chromium: the page's own inline script solves the challenge (the send
 * button is disabled until then), and the sign-up is taken. The default difficulty, so the browser
 * does the work an operator's readers would. Skipped, with one line, where chromium or chromedriver is
 * not installed.
 */
class SignupProofOfWorkBrowserTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort()).withPerMethodLifecycle(false);

    @TempDir
    static Path dir;

    private static final SettableClock clock = SettableClock.steppingAtSlotStart(WorkerEnv.TICK);
    private static ConsoleBrowser browser;
    private static ChromeDriver d;
    private static PublicListener listener;
    private static String base;
    private static long offers;

    @BeforeAll
    static void start() throws Exception {
        Optional<String[]> found = ConsoleBrowser.installed();
        Assumptions.assumeTrue(found.isPresent(), "no chromium and chromedriver installed: the proof-of-work browser test is skipped");
        browser = ConsoleBrowser.start(found.get(), dir.resolve("profile"), dir);
        d = browser.driver;
        Map<String, String> env = WorkerEnv.of(db, greenMail.getSmtp().getPort());
        env.put("MAILRUN_SIGNUP_ENABLED", "true");
        env.put("MAILRUN_SIGNUP_FROM", "Example News <news@sender.example>");
        env.put("MAILRUN_SIGNUP_PROOF_OF_WORK", "true");
        listener = PublicListener.start(env, clock);
        base = listener.base;
        offers = listener.services.audience().lists().create(new Lists.NewList("offers", Optional.empty(), ListVisibility.PUBLIC,
                ListOptIn.SINGLE)).id();
    }

    @AfterAll
    static void stop() {
        if (listener != null) {
            listener.close();
        }
        if (browser != null) {
            browser.close();
        }
    }

    @Test
    void the_browser_solves_the_challenge_and_the_sign_up_is_taken() throws Exception {
        PageTexts en = PageTexts.of("en");
        d.get(base + "/subscribe/offers");
        d.findElement(By.name("email")).sendKeys("dana@example.com");

        // Real time: the browser works at its own pace, whatever the test's clock says.
        Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> d.findElement(By.id("altcha-status")).getText().equals(en.text("signup.pow.done")));
        assertThat(d.findElement(By.name("altcha")).getAttribute("value")).as("the solution in the form").isNotBlank();
        assertThat(d.findElement(By.cssSelector("form button[type=submit]")).isEnabled()).isTrue();
        clock.advance(Duration.ofSeconds(5));
        navigate(d, By.cssSelector("form button[type=submit]"));

        assertThat(d.findElement(By.tagName("h1")).getText()).isEqualTo(en.text("signup.done.title"));
        assertThat(status("dana@example.com", offers)).isEqualTo("confirmed");
    }

    private static String status(String email, long list) throws Exception {
        return AudienceFixtures.subscriptionStatus(db.dataSource(), email, list);
    }
}
