package dev.mailrun.mail.bounce;

import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Status codes and addresses as they appear in free text. */
final class TextPatterns {

    /** 5.1.1 but not the middle of an IP address such as 203.0.113.9. */
    static final Pattern ENHANCED_STATUS = Pattern.compile("(?<![\\d.])([245]\\.\\d{1,3}\\.\\d{1,3})(?![\\d]|\\.\\d)");
    /** 550 followed by an enhanced code, a word or an address, not a number in a date or phone number. */
    static final Pattern SMTP_CODE = Pattern.compile("(?<![\\d.:])([245][0-5]\\d)[ -](?=[245]\\.\\d|[A-Za-z<#])");
    static final Pattern ADDRESS = Pattern.compile(
            "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+");

    private TextPatterns() {}

    static Optional<String> enhancedStatus(String text) {
        Matcher m = ENHANCED_STATUS.matcher(text);
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    static OptionalInt smtpCode(String text) {
        Matcher m = SMTP_CODE.matcher(text);
        return m.find() ? OptionalInt.of(Integer.parseInt(m.group(1))) : OptionalInt.empty();
    }
}
