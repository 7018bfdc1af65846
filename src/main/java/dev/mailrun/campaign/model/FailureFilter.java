package dev.mailrun.campaign.model;

import java.util.Locale;
import java.util.Optional;

/**
 * Which failed recipients an operator hands back to the queue: all of them, or those whose last
 * reply had one SMTP class (4xx, 5xx), one code, or an error text containing some words.
 *
 * @param codeClass    4 or 5: the first digit of the last reply code
 * @param code         an exact reply code, 200–599
 * @param errorContains words the last error must contain, compared without regard to case
 */
public record FailureFilter(Optional<Integer> codeClass, Optional<Integer> code, Optional<String> errorContains) {

    public FailureFilter {
        codeClass.filter(c -> c != 4 && c != 5).ifPresent(c -> {
            throw new IllegalArgumentException("--code: the reply class must be 4xx or 5xx, got " + c + "xx");
        });
        code.filter(c -> c < 200 || c > 599).ifPresent(c -> {
            throw new IllegalArgumentException("--code: an SMTP reply code is between 200 and 599, got " + c);
        });
        errorContains.filter(String::isBlank).ifPresent(c -> {
            throw new IllegalArgumentException("--reason must not be empty");
        });
    }

    public static FailureFilter all() {
        return new FailureFilter(Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** {@code 4xx}, {@code 5xx} or a three-digit code such as {@code 451}. */
    public static FailureFilter ofCode(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        if (t.matches("[45]xx")) {
            return new FailureFilter(Optional.of(t.charAt(0) - '0'), Optional.empty(), Optional.empty());
        }
        if (t.matches("\\d{3}")) {
            return new FailureFilter(Optional.empty(), Optional.of(Integer.parseInt(t)), Optional.empty());
        }
        throw new IllegalArgumentException("--code must be 4xx, 5xx or a reply code such as 451, got '" + text + "'");
    }

    public FailureFilter withErrorContaining(String words) {
        return new FailureFilter(codeClass, code, Optional.of(words));
    }
}
