package dev.mailrun.app.config;

import dev.mailrun.campaign.attach.AttachmentLimits;

/** What a campaign's messages may carry: the limits on its attached files ({@code content.*}). */
public record ContentConfig(AttachmentLimits attachments) {

    public static final ContentConfig DEFAULTS = new ContentConfig(AttachmentLimits.DEFAULTS);

    static ContentConfig from(RawConfig raw) {
        int each = raw.integer("content.max-attachment-bytes");
        int all = raw.integer("content.max-message-bytes");
        if (each > all) {
            throw ConfigException.invalid("content.max-attachment-bytes", "must not exceed content.max-message-bytes ("
                    + all + "), got " + each);
        }
        return new ContentConfig(new AttachmentLimits(each, all));
    }
}
