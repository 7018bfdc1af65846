package dev.mailrun.campaign.audience.signup;

import dev.mailrun.campaign.content.Contents;
import dev.mailrun.mail.RejectedMessageException;
import dev.mailrun.mail.smtp.Outgoing;
import dev.mailrun.mail.smtp.SendRateLimiter;
import dev.mailrun.mail.smtp.SendResult;
import dev.mailrun.mail.smtp.SmtpPool;
import dev.mailrun.mail.smtp.SmtpSettings;
import dev.mailrun.mail.template.CompiledTemplate;
import dev.mailrun.mail.template.LoadResult;
import dev.mailrun.mail.template.RenderResult;
import dev.mailrun.mail.template.RenderedContent;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.mail.template.TemplateSource;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeBodyPart;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import java.io.IOException;
import java.io.InputStream;
import java.io.UnsupportedEncodingException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Sends sign-up messages through the first relay, one message per connection, outside any campaign:
 * the template from the content store ({@link Contents#load}); for the confirmation, when no
 * template of its name is stored or written, the one shipped with mailrun
 * ({@value #DEFAULT_CONFIRM}). The confirmation's words come from {@link SignupTexts} as merge fields.
 */
public final class SmtpSignupMailer implements SignupMailer {

    public static final String DEFAULT_CONFIRM = "signup-confirm";
    private static final Duration TIMEOUT = Duration.ofMinutes(1);

    private final Contents contents;
    private final SmtpSettings smtp;
    private final SignupSettings settings;
    private final Clock clock;

    public SmtpSignupMailer(Contents contents, SmtpSettings smtp, SignupSettings settings, Clock clock) {
        this.contents = contents;
        this.smtp = smtp;
        this.settings = settings;
        this.clock = clock;
    }

    @Override
    public void confirmation(String address, Optional<String> name, List<String> lists, String language, String url, Instant expires) {
        SignupTexts t = new SignupTexts(language);
        String listNames = String.join(", ", lists);
        Map<String, Object> values = model(address, name, lists, t);
        values.put("subject_line", t.text("mail.confirm.subject", listNames));
        values.put("greeting", name.map(n -> t.text("mail.confirm.greeting.name", n)).orElse(t.text("mail.confirm.greeting")));
        values.put("intro", t.text("mail.confirm.body", address, listNames));
        values.put("button", t.text("mail.confirm.button"));
        values.put("expiry", t.text("mail.confirm.expiry", t.dateTime(expires)));
        values.put("ignore", t.text("mail.confirm.ignore"));
        values.put("confirm_url", url);
        send(template(settings.confirmTemplate()), address, name, values);
    }

    @Override
    public void welcome(String address, Optional<String> name, List<String> lists, String language, String template) {
        send(template(template), address, name, model(address, name, lists, new SignupTexts(language)));
    }

    private static Map<String, Object> model(String address, Optional<String> name, List<String> lists, SignupTexts t) {
        Map<String, Object> values = new HashMap<>();
        values.put("email", address);
        values.put("name", name.orElse(""));
        values.put("lists", String.join(", ", lists));
        values.put("language", t.language());
        return values;
    }

    private CompiledTemplate template(String name) {
        LoadResult loaded = contents.load(name);
        if (loaded instanceof LoadResult.Invalid && name.equals(DEFAULT_CONFIRM)) {
            loaded = TemplateLoader.compile(shipped(), Optional.empty());
        }
        if (loaded instanceof LoadResult.Invalid invalid) {
            throw new IllegalStateException("template " + name + " cannot be used: " + invalid.problems().get(0));
        }
        return ((LoadResult.Loaded) loaded).template();
    }

    /** The confirmation template shipped with mailrun. */
    static TemplateSource shipped() {
        return TemplateSource.of(DEFAULT_CONFIRM, resource("subject.txt"), resource("body.txt"), resource("body.html"), Optional.empty());
    }

    private static String resource(String part) {
        try (InputStream in = SmtpSignupMailer.class.getResourceAsStream(DEFAULT_CONFIRM + "/" + part)) {
            if (in == null) {
                throw new IllegalStateException("the shipped template " + DEFAULT_CONFIRM + " lacks " + part);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("the shipped template " + DEFAULT_CONFIRM + " cannot be read: " + e.getMessage(), e);
        }
    }

    private void send(CompiledTemplate template, String address, Optional<String> name, Map<String, Object> values) {
        RenderResult rendered = template.render(values);
        if (rendered instanceof RenderResult.Rejected rejected) {
            throw new IllegalStateException("template " + template.name() + " cannot be rendered: " + rejected.reason());
        }
        RenderedContent content = ((RenderResult.Rendered) rendered).content();
        AtomicReference<SendResult> result = new AtomicReference<>();
        try (SmtpPool pool = new SmtpPool(smtp, SendRateLimiter.unlimited(), clock)) {
            pool.sendBatch(List.of(new Message(address, name, content)), clock.instant().plus(TIMEOUT), () -> false, result::set);
        }
        if (!(result.get() instanceof SendResult.Sent)) {
            throw new IllegalStateException("the relay did not take the message to " + address + ": " + result.get());
        }
    }

    private final class Message implements Outgoing {
        private final String address;
        private final Optional<String> name;
        private final RenderedContent content;

        Message(String address, Optional<String> name, RenderedContent content) {
            this.address = address;
            this.name = name;
            this.content = content;
        }

        @Override
        public long key() {
            return 0;
        }

        @Override
        public MimeMessage build(Session session) throws RejectedMessageException {
            String domain = settings.from().address().substring(settings.from().address().indexOf('@') + 1);
            String id = "<" + UUID.randomUUID() + "@" + domain + ">";
            MimeMessage m = new MimeMessage(session) {
                @Override
                protected void updateMessageID() throws MessagingException {
                    setHeader("Message-ID", id);
                }
            };
            try {
                m.setFrom(mailbox(settings.from().address(), Optional.ofNullable(settings.from().displayName())));
                m.setRecipient(MimeMessage.RecipientType.TO, mailbox(address, name));
                m.setSubject(content.subject(), "UTF-8");
                m.setSentDate(Date.from(clock.instant()));
                m.setHeader("Auto-Submitted", "auto-generated");
                MimeMultipart alternative = new MimeMultipart("alternative");
                MimeBodyPart text = new MimeBodyPart();
                text.setText(content.text(), "UTF-8");
                MimeBodyPart html = new MimeBodyPart();
                html.setContent(content.html(), "text/html; charset=UTF-8");
                alternative.addBodyPart(text);
                alternative.addBodyPart(html);
                m.setContent(alternative);
                m.saveChanges();
                return m;
            } catch (MessagingException | UnsupportedEncodingException e) {
                throw new RejectedMessageException("the sign-up message cannot be built: " + e.getMessage());
            }
        }

        @Override
        public Optional<String> envelopeFrom() {
            return Optional.of(settings.from().address());
        }
    }

    private static InternetAddress mailbox(String address, Optional<String> name) throws UnsupportedEncodingException {
        return name.filter(n -> !n.isBlank()).isPresent() ? new InternetAddress(address, name.get(), "UTF-8") : newAddress(address);
    }

    private static InternetAddress newAddress(String address) {
        InternetAddress a = new InternetAddress();
        a.setAddress(address);
        return a;
    }
}
