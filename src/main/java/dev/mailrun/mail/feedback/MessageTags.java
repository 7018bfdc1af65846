package dev.mailrun.mail.feedback;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The metadata every message carries for the enabled providers, in the form each one echoes back in
 * its events: the campaign id and the recipient id under the names {@link #CAMPAIGN} and
 * {@link #RECIPIENT}.
 *
 * <pre>
 * SES       X-SES-MESSAGE-TAGS: mailrun-campaign=12, mailrun-recipient=3456   (and X-SES-CONFIGURATION-SET when set)
 * Postmark  X-PM-Metadata-mailrun-campaign: 12
 *           X-PM-Metadata-mailrun-recipient: 3456
 * SendGrid  X-SMTPAPI: {"unique_args":{"mailrun-campaign":"12","mailrun-recipient":"3456"}}
 * Mailgun   X-Mailgun-Variables: {"mailrun-campaign":"12","mailrun-recipient":"3456"}
 * </pre>
 *
 * The values are decimal numbers and the configuration set name is checked when configured, so
 * nothing here can break a header. The relay removes its own headers before delivery (SES strips
 * X-SES-*, the others read theirs); a relay of another provider passes them on unread.
 *
 * <p>They reach the message composer through the properties of the session messages are built
 * with ({@link #store}, {@link #of(Properties)}): the relay's settings say which provider it is.
 *
 * @param providers           the providers whose feedback is enabled
 * @param sesConfigurationSet the SES configuration set whose event destination publishes the events
 */
public record MessageTags(Set<Provider> providers, Optional<String> sesConfigurationSet) {

    public static final String CAMPAIGN = "mailrun-campaign";
    static final String RECIPIENT = "mailrun-recipient";
    public static final MessageTags NONE = new MessageTags(Set.of(), Optional.empty());

    /** SES: letters, digits, '_' and '-', at most 64 characters. */
    private static final Pattern CONFIGURATION_SET = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    private static final String PROVIDERS_PROPERTY = "mailrun.feedback.providers";
    private static final String CONFIGURATION_SET_PROPERTY = "mailrun.feedback.ses.configuration-set";

    public MessageTags {
        providers = providers.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(providers));
        Objects.requireNonNull(sesConfigurationSet, "sesConfigurationSet");
        sesConfigurationSet.ifPresent(MessageTags::checkConfigurationSet);
    }

    /** Throws IllegalArgumentException naming the key when the name is not a valid SES configuration set. */
    static String checkConfigurationSet(String name) {
        if (!CONFIGURATION_SET.matcher(name).matches()) {
            throw new IllegalArgumentException("feedback.ses.configuration-set: must be 1-64 letters, digits, '_' or '-', got '"
                    + name + "'");
        }
        return name;
    }

    /**
     * Whether a header of this name (any case) is one that some provider's metadata writes: an
     * operator's own header of that name would be written twice or misread by the relay.
     */
    public static boolean writes(String headerName) {
        return WRITTEN.contains(headerName.toLowerCase(java.util.Locale.ROOT));
    }

    /** Every name {@link #headers} may write, in lower case. */
    private static final Set<String> WRITTEN = Set.of("x-ses-configuration-set", "x-ses-message-tags", "x-smtpapi",
            "x-mailgun-variables", ("X-PM-Metadata-" + CAMPAIGN).toLowerCase(java.util.Locale.ROOT),
            ("X-PM-Metadata-" + RECIPIENT).toLowerCase(java.util.Locale.ROOT));

    /** The headers for one message, in order: name, then value. */
    public List<Map.Entry<String, String>> headers(SendIds ids) {
        List<Map.Entry<String, String>> headers = new ArrayList<>();
        String campaign = Long.toString(ids.campaignId());
        String recipient = Long.toString(ids.recipientId());
        String json = "{\"" + CAMPAIGN + "\":\"" + campaign + "\",\"" + RECIPIENT + "\":\"" + recipient + "\"}";
        for (Provider p : Provider.values()) {
            if (!providers.contains(p)) {
                continue;
            }
            switch (p) {
                case SES -> {
                    sesConfigurationSet.ifPresent(set -> headers.add(Map.entry("X-SES-CONFIGURATION-SET", set)));
                    headers.add(Map.entry("X-SES-MESSAGE-TAGS", CAMPAIGN + "=" + campaign + ", " + RECIPIENT + "=" + recipient));
                }
                case POSTMARK -> {
                    headers.add(Map.entry("X-PM-Metadata-" + CAMPAIGN, campaign));
                    headers.add(Map.entry("X-PM-Metadata-" + RECIPIENT, recipient));
                }
                case SENDGRID -> headers.add(Map.entry("X-SMTPAPI", "{\"unique_args\":" + json + "}"));
                case MAILGUN -> headers.add(Map.entry("X-Mailgun-Variables", json));
            }
        }
        return headers;
    }

    /** Writes these tags into the properties of a mail session. */
    public void store(Properties properties) {
        if (providers.isEmpty()) {
            properties.remove(PROVIDERS_PROPERTY);
        } else {
            properties.setProperty(PROVIDERS_PROPERTY, providers.stream().sorted().map(Provider::id).collect(Collectors.joining(",")));
        }
        sesConfigurationSet.ifPresentOrElse(set -> properties.setProperty(CONFIGURATION_SET_PROPERTY, set),
                () -> properties.remove(CONFIGURATION_SET_PROPERTY));
    }

    /** The tags a session's properties carry; none when they carry none. */
    public static MessageTags of(Properties properties) {
        String providers = properties.getProperty(PROVIDERS_PROPERTY, "");
        if (providers.isEmpty()) {
            return NONE;
        }
        Set<Provider> set = EnumSet.noneOf(Provider.class);
        Arrays.stream(providers.split(",")).map(id -> Provider.valueOf(id.toUpperCase(java.util.Locale.ROOT))).forEach(set::add);
        return new MessageTags(set, Optional.ofNullable(properties.getProperty(CONFIGURATION_SET_PROPERTY)));
    }

    /**
     * The ids echoed back, read with {@code value} (which gives a metadata value by name); empty when
     * either is missing or not a decimal number, positive for the campaign and positive or 0 (a test
     * send, {@link SendIds#TEST_RECIPIENT}) for the recipient.
     */
    public static Optional<SendIds> read(java.util.function.Function<String, Optional<String>> value) {
        Optional<Long> campaign = value.apply(CAMPAIGN).flatMap(MessageTags::number);
        Optional<Long> recipient = value.apply(RECIPIENT).flatMap(v -> v.strip().equals("0") ? Optional.of(0L) : number(v));
        return campaign.isPresent() && recipient.isPresent()
                ? Optional.of(new SendIds(campaign.get(), recipient.get())) : Optional.empty();
    }

    private static Optional<Long> number(String s) {
        String v = s.strip();
        if (!v.matches("[1-9]\\d{0,17}")) {
            return Optional.empty();
        }
        return Optional.of(Long.parseLong(v));
    }
}
