package dev.mailrun.app.config;

import dev.mailrun.campaign.attach.AttachmentLimits;
import dev.mailrun.campaign.attach.RecipientFiles;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What a campaign's messages may carry ({@code content.*}): the limits on attached files, and where
 * the recipients' own files are (none: {@link RecipientFiles#configured()} is false).
 */
public record ContentConfig(AttachmentLimits attachments, RecipientFiles recipientFiles) {

    public static final ContentConfig DEFAULTS = new ContentConfig(AttachmentLimits.DEFAULTS,
            RecipientFiles.none(AttachmentLimits.DEFAULTS));

    static ContentConfig from(RawConfig raw) {
        int each = raw.integer("content.max-attachment-bytes");
        int all = raw.integer("content.max-message-bytes");
        if (each > all) {
            throw ConfigException.invalid("content.max-attachment-bytes", "must not exceed content.max-message-bytes ("
                    + all + "), got " + each);
        }
        AttachmentLimits limits = new AttachmentLimits(each, all);
        Optional<String> root = raw.optional("content.recipient-files");
        if (root.isEmpty()) {
            return new ContentConfig(limits, RecipientFiles.none(limits));
        }
        try {
            return new ContentConfig(limits, RecipientFiles.under(Path.of(root.get()), limits));
        } catch (IllegalArgumentException e) {
            throw ConfigException.invalid("content.recipient-files", "must name an existing directory, got '" + root.get() + "'");
        }
    }
}
