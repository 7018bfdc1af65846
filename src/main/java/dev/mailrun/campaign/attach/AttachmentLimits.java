package dev.mailrun.campaign.attach;

/**
 * How large a campaign's files may be: each ({@code content.max-attachment-bytes}) and all of them
 * together ({@code content.max-message-bytes}). Validated here; the configuration names the keys.
 */
public record AttachmentLimits(long maxAttachmentBytes, long maxMessageBytes) {

    public static final long MIB = 1024L * 1024;
    public static final AttachmentLimits DEFAULTS = new AttachmentLimits(10 * MIB, 20 * MIB);

    public AttachmentLimits {
        if (maxAttachmentBytes < 1 || maxMessageBytes < 1) {
            throw new IllegalArgumentException("attachment limits must be at least 1 byte");
        }
        if (maxAttachmentBytes > maxMessageBytes) {
            throw new IllegalArgumentException("content.max-attachment-bytes (" + maxAttachmentBytes
                    + ") must not exceed content.max-message-bytes (" + maxMessageBytes + ")");
        }
    }
}
