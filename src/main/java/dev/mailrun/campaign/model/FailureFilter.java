package dev.mailrun.campaign.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Which failed recipients an operator hands back to the queue: all of them, or those whose last
 * reply had one SMTP class (4xx, 5xx), one code, or an error text containing some words. Every filter
 * is within the limits below, however it was made: the command line, the API and the console give
 * theirs as text, read once by {@link #parse}.
 *
 * @param codeClass    4 or 5: the first digit of the last reply code
 * @param code         an exact reply code, 200–599
 * @param errorContains words the last error must contain, compared without regard to case: one line
 *                      of at most {@link #MAX_REASON} characters
 */
public record FailureFilter(Optional<Integer> codeClass, Optional<Integer> code, Optional<String> errorContains) {

    /** Longest error text to match: a reply line is at most a few hundred characters. */
    public static final int MAX_REASON = 200;

    public FailureFilter {
        codeClass.filter(c -> c != 4 && c != 5).ifPresent(c -> {
            throw InvalidFields.of("code", "the reply class must be 4xx or 5xx, got " + c + "xx");
        });
        code.filter(c -> c < 200 || c > 599).ifPresent(c -> {
            throw InvalidFields.of("code", "an SMTP reply code is between 200 and 599, got " + c);
        });
        errorContains.flatMap(FailureFilter::reasonProblem).ifPresent(problem -> {
            throw InvalidFields.of("reason", problem);
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

    /**
     * The filter an operator gives, from the text of each part (the command line's options, the API's
     * members, the console's fields): every problem at once, each naming its field ({@code code},
     * {@code reason}); the words stripped of surrounding blanks.
     *
     * @throws InvalidFields naming each bad part
     */
    public static FailureFilter parse(Optional<String> code, Optional<String> reason) {
        List<InvalidFields.Problem> problems = new ArrayList<>();
        FailureFilter filter = all();
        try {
            filter = code.map(FailureFilter::ofCode).orElse(filter);
        } catch (InvalidFields e) {
            problems.addAll(e.problems());
        }
        Optional<String> words = reason.map(String::strip);
        words.flatMap(FailureFilter::reasonProblem).ifPresent(p -> problems.add(new InvalidFields.Problem("reason", p)));
        if (!problems.isEmpty()) {
            throw new InvalidFields(problems);
        }
        return words.map(filter::withErrorContaining).orElse(filter);
    }

    private static Optional<String> reasonProblem(String words) {
        if (words.isBlank()) {
            return Optional.of("must not be empty");
        }
        if (words.length() > MAX_REASON) {
            return Optional.of("is longer than " + MAX_REASON + " characters");
        }
        if (words.chars().anyMatch(Character::isISOControl)) {
            return Optional.of("must be one line of text without control characters");
        }
        return Optional.empty();
    }
}
