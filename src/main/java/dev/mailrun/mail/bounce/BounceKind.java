package dev.mailrun.mail.bounce;

/** What a message in the bounce mailbox says about one recipient. */
public enum BounceKind {
    /** A permanent failure about the address (5.1.1 no such user, 5.2.1 disabled, …): it does not accept mail. */
    HARD,
    /**
     * A permanent refusal that is not about the address (5.7.x policy, spam, authentication; see
     * {@link PermanentFailures}): this message failed, the address may well be fine.
     */
    REFUSED,
    /** A transient failure or delay (status 4.x.x): the address may accept mail later. */
    SOFT,
    /** The recipient reported the message as spam (a feedback report). */
    COMPLAINT,
    /** Not a bounce, or a bounce nothing could be read from. */
    UNRECOGNISED
}
