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
            throw InvalidFields.of("code", "the reply class must be 4xx or 5xx, got " + c + "xx");
        });
        code.filter(c -> c < 200 || c > 599).ifPresent(c -> {
            throw InvalidFields.of("code", "an SMTP reply code is between 200 and 599, got " + c);
        });
        errorContains.filter(String::isBlank).ifPresent(c -> {
            throw InvalidFields.of("reason", "must not be empty");
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
        throw InvalidFields.of("code", "must be 4xx, 5xx or a reply code such as 451, got '" + text + "'");
    }

    public FailureFilter withErrorContaining(String words) {
        return new FailureFilter(codeClass, code, Optional.of(words));
    }

    /** Longest error text to match: a reply line is at most a few hundred characters. */
    public static final int MAX_REASON = 200;

    /**
     * The filter an operator gives, from the text of each part (the command line's options, the API's
     * members, the console's fields): every problem at once, each naming its field ({@code code},
     * {@code reason}).
     *
     * @throws InvalidFields naming each bad part
     */
    public static FailureFilter parse(Optional<String> code, Optional<String> reason) {
        java.util.List<InvalidFields.Problem> problems = new java.util.ArrayList<>();
        FailureFilter filter = all();
        try {
            filter = code.map(FailureFilter::ofCode).orElse(filter);
        } catch (InvalidFields e) {
            problems.addAll(e.problems());
        }
        if (reason.isPresent()) {
            String r = reason.get().strip();
            if (r.isEmpty()) {
                problems.add(new InvalidFields.Problem("reason", "must not be empty"));
            } else if (r.length() > MAX_REASON) {
                problems.add(new InvalidFields.Problem("reason", "is longer than " + MAX_REASON + " characters"));
            } else if (r.chars().anyMatch(Character::isISOControl)) {
                problems.add(new InvalidFields.Problem("reason", "must be one line of text without control characters"));
            } else {
                filter = filter.withErrorContaining(r);
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidFields(problems);
        }
        return filter;
    }
}
