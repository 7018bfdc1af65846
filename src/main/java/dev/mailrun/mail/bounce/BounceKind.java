package dev.mailrun.mail.bounce;

/** What a message in the bounce mailbox says about one recipient. */
public enum BounceKind {
    /** A permanent failure (status 5.x.x): the address does not accept mail. */
    HARD,
    /** A transient failure or delay (status 4.x.x): the address may accept mail later. */
    SOFT,
    /** The recipient reported the message as spam (a feedback report). */
    COMPLAINT,
    /** Not a bounce, or a bounce nothing could be read from. */
    UNRECOGNISED
}
