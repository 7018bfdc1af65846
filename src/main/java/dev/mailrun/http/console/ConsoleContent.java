package dev.mailrun.http.console;

import dev.mailrun.campaign.TestSend;
import dev.mailrun.campaign.content.TemplateStore;
import java.util.function.Supplier;

/**
 * What the console's content pages work through beside the API's services: the stored templates
 * (their versions and diffs) and the test send {@code mailrun send-test} makes. The test send is made
 * when a page asks for it, not when the console starts: it needs the sending settings (the relays, the
 * unsubscribe secret), which a console that never sends a test does not.
 */
public record ConsoleContent(TemplateStore templates, Supplier<TestSend> testSend) {}
