package dev.mailrun.mail.bounce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.user.GreenMailUser;
import com.icegreen.greenmail.util.ServerSetup;
import com.icegreen.greenmail.util.ServerSetupTest;
import jakarta.mail.Flags;
import jakarta.mail.Folder;
import jakarta.mail.Message;
import jakarta.mail.Session;
import jakarta.mail.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class BounceMailboxTest {

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetup.dynamicPort(ServerSetupTest.SMTP_IMAP));

    private GreenMailUser user;

    @BeforeEach
    void mailbox() {
        user = greenMail.setUser("bounces@mail.example.com", "bounces", "s3cret-pass");
        user.deliver(Samples.message("rfc3464-hard-5.1.1.eml"));
        user.deliver(Samples.message("auto-reply-not-a-bounce.eml"));
        user.deliver(Samples.message("arf-complaint.eml"));
    }

    @Test
    void each_message_is_handed_over_once_and_a_second_run_finds_nothing_new() throws Exception {
        BounceMailbox mailbox = new BounceMailbox(settings(Optional.empty()));
        List<String> subjects = new ArrayList<>();

        BounceMailbox.Run first = mailbox.readUnprocessed(100, m -> {
            subjects.add(m.getSubject());
            return BounceMailbox.Disposition.DONE;
        });
        BounceMailbox.Run second = mailbox.readUnprocessed(100, m -> BounceMailbox.Disposition.DONE);

        assertThat(first.read()).isEqualTo(3);
        assertThat(subjects).containsExactly("Undelivered Mail Returned to Sender", "Automatic reply: March news", "Abuse report");
        assertThat(second.read()).isZero();
        assertThat(flags("INBOX")).hasSize(3).allSatisfy(f -> {
            assertThat(f.contains(BounceMailbox.PROCESSED_KEYWORD)).isTrue();
            assertThat(f.contains(Flags.Flag.SEEN)).isTrue();
        });
    }

    @Test
    void a_message_left_for_review_is_marked_processed_but_stays_unread() throws Exception {
        BounceMailbox mailbox = new BounceMailbox(settings(Optional.empty()));

        BounceMailbox.Run run = mailbox.readUnprocessed(100, m -> m.getSubject().startsWith("Automatic reply")
                ? BounceMailbox.Disposition.FOR_REVIEW : BounceMailbox.Disposition.DONE);

        assertThat(run.forReview()).isEqualTo(1);
        List<Flags> flags = flags("INBOX");
        assertThat(flags.get(1).contains(BounceMailbox.PROCESSED_KEYWORD)).isTrue();
        assertThat(flags.get(1).contains(Flags.Flag.SEEN)).isFalse();
        assertThat(mailbox.readUnprocessed(100, m -> BounceMailbox.Disposition.DONE).read()).isZero();
    }

    @Test
    void a_handler_failure_leaves_that_message_unmarked_for_the_next_run() throws Exception {
        BounceMailbox mailbox = new BounceMailbox(settings(Optional.empty()));

        assertThatThrownBy(() -> mailbox.readUnprocessed(100, m -> {
            if (m.getSubject().equals("Abuse report")) {
                throw new IllegalStateException("database unavailable");
            }
            return BounceMailbox.Disposition.DONE;
        })).hasMessage("database unavailable");
        List<String> retried = new ArrayList<>();
        mailbox.readUnprocessed(100, m -> {
            retried.add(m.getSubject());
            return BounceMailbox.Disposition.DONE;
        });

        assertThat(retried).containsExactly("Abuse report");
    }

    @Test
    void the_limit_bounds_one_run_and_the_rest_waits_for_the_next() throws Exception {
        BounceMailbox mailbox = new BounceMailbox(settings(Optional.empty()));

        assertThat(mailbox.readUnprocessed(2, m -> BounceMailbox.Disposition.DONE).read()).isEqualTo(2);
        assertThat(mailbox.readUnprocessed(2, m -> BounceMailbox.Disposition.DONE).read()).isEqualTo(1);
    }

    @Test
    void with_a_processed_folder_messages_are_moved_there_and_not_read_again() throws Exception {
        BounceMailbox mailbox = new BounceMailbox(settings(Optional.of("Processed")));

        assertThat(mailbox.readUnprocessed(100, m -> BounceMailbox.Disposition.DONE).read()).isEqualTo(3);
        assertThat(mailbox.readUnprocessed(100, m -> BounceMailbox.Disposition.DONE).read()).isZero();
        assertThat(flags("INBOX")).isEmpty();
        assertThat(flags("Processed")).hasSize(3);
    }

    @Test
    void batches_are_marked_after_their_handler_returned_and_a_failed_batch_is_read_again_whole() throws Exception {
        BounceMailbox mailbox = new BounceMailbox(settings(Optional.empty()));
        List<Integer> sizes = new ArrayList<>();

        assertThatThrownBy(() -> mailbox.readUnprocessed(100, 2, batch -> {
            sizes.add(batch.size());
            if (sizes.size() == 2) {
                throw new IllegalStateException("database unavailable");
            }
            return batch.stream().map(m -> BounceMailbox.Disposition.KEPT_UNREAD).toList();
        })).hasMessage("database unavailable");
        assertThat(sizes).containsExactly(2, 1);
        List<Flags> flags = flags("INBOX");
        assertThat(flags.subList(0, 2)).allSatisfy(f -> {
            assertThat(f.contains(BounceMailbox.PROCESSED_KEYWORD)).isTrue();
            assertThat(f.contains(Flags.Flag.SEEN)).isFalse();
        });
        assertThat(flags.get(2).contains(BounceMailbox.PROCESSED_KEYWORD)).isFalse();

        List<String> retried = new ArrayList<>();
        BounceMailbox.Run run = mailbox.readUnprocessed(100, 2, batch -> {
            batch.forEach(m -> retried.add(subject(m)));
            return batch.stream().map(m -> BounceMailbox.Disposition.KEPT_UNREAD).toList();
        });
        assertThat(run).isEqualTo(new BounceMailbox.Run(1, 0));
        assertThat(retried).containsExactly("Abuse report");
    }

    @Test
    void a_replies_mailbox_names_its_own_keys() {
        assertThatThrownBy(() -> new MailboxSettings("h", 993, true, "", "p", null, Optional.empty(), "replies"))
                .hasMessage("replies.imap.user is not set");
        assertThat(new MailboxSettings("h", 993, true, "u", "p", null, Optional.empty()).name()).isEqualTo("bounce");
    }

    private static String subject(jakarta.mail.internet.MimeMessage m) {
        try {
            return m.getSubject();
        } catch (jakarta.mail.MessagingException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void settings_never_show_the_password_and_reject_nonsense() {
        assertThat(settings(Optional.empty()).toString()).doesNotContain("s3cret-pass").contains("password=***");
        assertThatThrownBy(() -> new MailboxSettings("", 993, true, "u", "p", null, Optional.empty()))
                .hasMessage("bounce.imap.host is not set");
        assertThatThrownBy(() -> new MailboxSettings("h", 0, true, "u", "p", null, Optional.empty()))
                .hasMessage("bounce.imap.port must be 1-65535, was 0");
        assertThatThrownBy(() -> new MailboxSettings("h", 993, true, "u", "p", "INBOX", Optional.of("inbox")))
                .hasMessageContaining("must differ");
        assertThat(new MailboxSettings("h", 993, true, "u", "p", " ", Optional.of(" ")))
                .satisfies(s -> {
                    assertThat(s.folder()).isEqualTo("INBOX");
                    assertThat(s.processedFolder()).isEmpty();
                });
    }

    private MailboxSettings settings(Optional<String> processedFolder) {
        return new MailboxSettings("127.0.0.1", greenMail.getImap().getPort(), false, "bounces", "s3cret-pass",
                "INBOX", processedFolder);
    }

    private List<Flags> flags(String folderName) throws Exception {
        Properties p = new Properties();
        p.setProperty("mail.imap.peek", "true");
        try (Store store = Session.getInstance(p).getStore("imap")) {
            store.connect("127.0.0.1", greenMail.getImap().getPort(), "bounces", "s3cret-pass");
            Folder folder = store.getFolder(folderName);
            if (!folder.exists()) {
                return List.of();
            }
            folder.open(Folder.READ_ONLY);
            List<Flags> result = new ArrayList<>();
            for (Message m : folder.getMessages()) {
                result.add(m.getFlags());
            }
            folder.close(false);
            return result;
        }
    }
}
