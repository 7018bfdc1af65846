package dev.mailrun.campaign.content;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.mail.template.TemplateSource;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A campaign's own message as it was written is kept with the version it was composed into: read back
 * by name and version, replaced when the same composed text is written again another way, gone with its
 * version, and absent for a version saved as a whole template.
 */
class WrittenMessageTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final SettableClock clock = new SettableClock(Instant.parse("2026-12-07T09:00:00Z"));
    private final TemplateStore store = new TemplateStore(db.dataSource(), clock, TemplateStore.DEFAULT_MAX_BYTES);

    private static final TemplateSource COMPOSED = TemplateSource.of("weekly", "Week\n", "Hello\n", "<p>Hello</p>\n", Optional.empty());

    @Test
    void the_message_is_kept_with_its_version_replaced_by_a_later_writing_of_the_same_text_and_gone_with_the_version()
            throws Exception {
        MessageForm markdown = new MessageForm("frame", new OwnMessage("Week", "Hello\n", BodyFormat.MARKDOWN, Optional.of("Hello")));
        assertThat(store.save(COMPOSED, "console:ops", Optional.of(markdown))).isEqualTo(new TemplateStore.Saved.NewVersion("weekly", 1, true));
        assertThat(store.message("weekly", 1)).hasValue(markdown);
        assertThat(store.message("weekly", 2)).isEmpty();

        MessageForm html = new MessageForm("frame", new OwnMessage("Week", "<p>Hello</p>", BodyFormat.HTML, Optional.empty()));
        assertThat(store.save(COMPOSED, "api:ops", Optional.of(html))).isEqualTo(new TemplateStore.Saved.Unchanged("weekly", 1));
        assertThat(store.message("weekly", 1)).as("the latest writing of the same composed text").hasValue(html);

        store.save(TemplateSource.of("weekly", "Week 2\n", "Hi\n", "<p>Hi</p>\n", Optional.empty()), "editor");
        assertThat(store.message("weekly", 2)).as("a version saved as a whole template").isEmpty();
        store.delete("weekly", 2);
        store.delete("weekly", 1);
        store.save(COMPOSED, "editor");
        assertThat(store.message("weekly", 1)).as("a deleted version's message went with it, not to its number's next holder")
                .isEmpty();
    }
}
