package dev.mailrun.mail.smtp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.mail.ScriptedSmtpServer;
import dev.mailrun.mail.ScriptedSmtpServer.Reply;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** A message counts from the moment its MAIL FROM goes, after what the transport does first. */
class StampedTransportTest {

    @Test
    void a_message_is_stamped_after_the_transports_own_work_and_before_its_mail_from_reaches_the_relay() throws Exception {
        List<String> order = new CopyOnWriteArrayList<>();
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder().on("MAIL", cmd -> {
            order.add("MAIL FROM at the relay");
            return Reply.ok();
        }).start()) {
            WriteDeadlines deadlines = WriteDeadlines.watched("stamped-test");
            SmtpConnection connection = new SmtpConnection(TestMail.settings(smtp.port()), PoolEvents.NONE, deadlines,
                    System::nanoTime);
            try {
                connection.ensureOpen(Duration.ofSeconds(5));
                for (int i = 0; i < 2; i++) {
                    connection.send(message(order), Optional.empty(), Duration.ofSeconds(5), () -> order.add("stamped"));
                }
            } finally {
                connection.close();
                deadlines.shutdown();
            }
        }
        // The transport reads the subject for its listeners before it writes MAIL FROM: a message
        // stamped before that work would count from earlier than it went.
        assertThat(order).containsExactly("the transport's own work", "stamped", "MAIL FROM at the relay",
                "the transport's own work", "stamped", "MAIL FROM at the relay");
    }

    private static MimeMessage message(List<String> order) throws MessagingException {
        MimeMessage message = new MimeMessage(Session.getInstance(new Properties())) {
            @Override
            public String getSubject() throws MessagingException {
                order.add("the transport's own work");
                return super.getSubject();
            }
        };
        message.setFrom(new InternetAddress("news@sender.example"));
        message.setRecipient(Message.RecipientType.TO, new InternetAddress("reader@example.com"));
        message.setSubject("Stamped");
        message.setText("Hello");
        message.saveChanges();
        return message;
    }
}
