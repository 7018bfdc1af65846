package dev.mailrun.mail.feedback;

import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Amazon SES feedback through SNS ({@code feedback.ses.*}).
 *
 * @param topicArns        the SNS topics whose messages are taken; empty: any topic (the signature
 *                         still has to verify)
 * @param autoConfirm      confirm a subscription by fetching its SubscribeURL (only from an SNS host);
 *                         otherwise the URL is logged for the operator to open
 * @param configurationSet the configuration set named in every message (X-SES-CONFIGURATION-SET);
 *                         empty: the sending identity's default configuration set
 */
public record SesSettings(Set<String> topicArns, boolean autoConfirm, Optional<String> configurationSet) {

    private static final Pattern TOPIC_ARN = Pattern.compile("arn:aws(-cn|-us-gov)?:sns:[a-z0-9-]+:\\d{12}:[A-Za-z0-9_-]{1,256}");

    public SesSettings {
        topicArns = Set.copyOf(topicArns);
        for (String arn : topicArns) {
            if (!TOPIC_ARN.matcher(arn).matches()) {
                throw new IllegalArgumentException("feedback.ses.topic-arns: '" + arn
                        + "' is not an SNS topic ARN like arn:aws:sns:us-east-1:123456789012:ses-feedback");
            }
        }
        Objects.requireNonNull(configurationSet, "configurationSet").ifPresent(MessageTags::checkConfigurationSet);
    }

    boolean takesTopic(String arn) {
        return topicArns.isEmpty() || topicArns.contains(arn);
    }
}
