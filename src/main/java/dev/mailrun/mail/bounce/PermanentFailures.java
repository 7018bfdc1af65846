package dev.mailrun.mail.bounce;

import dev.mailrun.mail.AddressStatus;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Which permanent failures (5.x.x) say the address is bad. Only those are {@link BounceKind#HARD}
 * and suppress it: a "5.7.1 blocked for spam", a DMARC failure or a blocklisting says the
 * receiving system refused the sender or the message, and suppressing on it would strike valid
 * addresses off every later list after one bad day at one provider.
 *
 * <table>
 *   <caption>Permanent status → kind</caption>
 *   <tr><td>5.1.x (not 5.1.7, 5.1.8: the sender's address), 5.2.1 mailbox disabled, 5.4.4 unable to route</td><td>hard</td></tr>
 *   <tr><td>5.2.2 mailbox full</td><td>soft: counts towards the soft-bounce limit</td></tr>
 *   <tr><td>5.7.x security or policy</td><td>refused</td></tr>
 *   <tr><td>anything else: by the server's wording — "no such user" and the like: hard; "mailbox full": soft; spam, block lists,
 *       policy, authentication: refused; no wording to go by: hard for an unspecific 5.0.0 (or none), else refused</td></tr>
 * </table>
 */
final class PermanentFailures {

    private static final Pattern FULL = Pattern.compile("mailbox (is )?full|over quota|quota exceeded|insufficient (system )?storage");
    private static final Pattern REFUSAL = Pattern.compile(
            "spam|block ?list|black ?list|blocked|\\bpolicy\\b|reputation|\\bdmarc\\b|\\bspf\\b|\\bdkim\\b"
                    + "|not authori[sz]ed|authentication|rate limit|too many|content rejected|message rejected");

    private PermanentFailures() {}

    /**
     * @param status     the enhanced status code, e.g. "5.7.1"; "" or "5.0.0" when the report gave none
     * @param diagnostic the server's explanation, any case
     */
    static BounceKind kind(String status, String diagnostic) {
        if (AddressStatus.permanentlyBad(status)) {
            return BounceKind.HARD;
        }
        if (status.equals("5.2.2")) {
            return BounceKind.SOFT;
        }
        if (status.startsWith("5.7.")) {
            return BounceKind.REFUSED;
        }
        if (AddressStatus.saysNoSuchAddress(diagnostic)) {
            return BounceKind.HARD;
        }
        String words = diagnostic.toLowerCase(Locale.ROOT);
        if (FULL.matcher(words).find()) {
            return BounceKind.SOFT;
        }
        if (REFUSAL.matcher(words).find()) {
            return BounceKind.REFUSED;
        }
        return status.isEmpty() || status.equals("5.0.0") ? BounceKind.HARD : BounceKind.REFUSED;
    }
}
