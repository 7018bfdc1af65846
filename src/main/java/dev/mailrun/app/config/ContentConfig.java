package dev.mailrun.app.config;

import dev.mailrun.campaign.attach.AttachmentLimits;
import dev.mailrun.campaign.attach.RecipientFiles;
import dev.mailrun.campaign.content.TemplateStore;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What a campaign's messages may carry ({@code content.*}): the limits on attached files, where the
 * recipients' own files are (none: {@link RecipientFiles#configured()} is false), and the largest
 * template text a save stores.
 */
public record ContentConfig(AttachmentLimits attachments, RecipientFiles recipientFiles, long maxTemplateBytes) {

    public static final ContentConfig DEFAULTS = new ContentConfig(AttachmentLimits.DEFAULTS,
            RecipientFiles.none(AttachmentLimits.DEFAULTS), TemplateStore.DEFAULT_MAX_BYTES);

    static ContentConfig from(RawConfig raw) {
        int each = raw.integer("content.max-attachment-bytes");
        int all = raw.integer("content.max-message-bytes");
        if (each > all) {
            throw ConfigException.invalid("content.max-attachment-bytes", "must not exceed content.max-message-bytes ("
                    + all + "), got " + each);
        }
        AttachmentLimits limits = new AttachmentLimits(each, all);
        long templateBytes = raw.integer("content.max-template-bytes");
        Optional<String> root = raw.optional("content.recipient-files");
        if (root.isEmpty()) {
            return new ContentConfig(limits, RecipientFiles.none(limits), templateBytes);
        }
        try {
            return new ContentConfig(limits, RecipientFiles.under(Path.of(root.get()), limits), templateBytes);
        } catch (IllegalArgumentException e) {
            throw ConfigException.invalid("content.recipient-files", "must name an existing directory, got '" + root.get() + "'");
        }
    }
}
