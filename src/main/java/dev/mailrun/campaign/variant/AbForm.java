package dev.mailrun.campaign.variant;

import dev.mailrun.campaign.model.AbTest;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.PickBy;
import dev.mailrun.campaign.model.Variant;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The A/B options of {@code campaign create} as the operator wrote them ({@code --variant},
 * {@code --test-share 20%}, {@code --decide-after 4h} or {@code --decide manual},
 * {@code --pick-by manual}), read into an {@link AbTest}. Every problem is reported at once, each with
 * the domain's name of its field.
 */
public record AbForm(List<String> variants, Optional<String> testShare, Optional<String> decideAfter,
                     Optional<String> decide, Optional<String> pickBy) {

    private static final Pattern SHARE = Pattern.compile("(\\d{1,3})\\s*%?");
    private static final Pattern DURATION = Pattern.compile("(\\d{1,6})(s|m|h|d)");

    public AbForm {
        variants = variants == null ? List.of() : List.copyOf(variants);
    }

    /** No A/B options at all. */
    public static AbForm none() {
        return new AbForm(List.of(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    }

    /**
     * The test; empty when no option was given.
     *
     * @throws InvalidFields with every field that is wrong (variants, testShare, decideAfter, decide,
     *                       pickBy: the domain's names, which each interface translates)
     */
    public Optional<AbTest> parse() {
        List<InvalidFields.Problem> problems = new ArrayList<>();
        if (variants.isEmpty()) {
            for (var given : List.of(Map.entry("testShare", testShare), Map.entry("decideAfter", decideAfter),
                    Map.entry("decide", decide), Map.entry("pickBy", pickBy))) {
                if (given.getValue().isPresent()) {
                    problems.add(new InvalidFields.Problem(given.getKey(), "needs variants"));
                }
            }
            if (!problems.isEmpty()) {
                throw new InvalidFields(problems);
            }
            return Optional.empty();
        }
        List<Variant> parsed = new ArrayList<>();
        if (variants.size() > AbTest.MAX_VARIANTS) {
            problems.add(new InvalidFields.Problem("variants", "at most " + AbTest.MAX_VARIANTS + " variants, got " + variants.size()));
        } else {
            for (String v : variants) {
                field(problems, "variants", () -> parsed.add(Variant.parse(v)));
            }
        }
        if (decideAfter.isPresent() && decide.isPresent()) {
            problems.add(new InvalidFields.Problem("decide", "manual excludes a time to decide after"));
        }
        decide.filter(d -> !d.equals("manual")).ifPresent(d ->
                problems.add(new InvalidFields.Problem("decide", "must be manual (or give a time to decide after), got '" + d + "'")));
        PickBy[] by = {PickBy.MANUAL};
        pickBy.ifPresent(p -> field(problems, "pickBy", () -> by[0] = PickBy.parse(p)));
        int[] share = {0};
        if (testShare.isEmpty()) {
            problems.add(new InvalidFields.Problem("testShare", "is required with variants, e.g. 20%"));
        } else {
            field(problems, "testShare", () -> share[0] = share(testShare.get()));
        }
        Optional<Duration> after = Optional.empty();
        if (decideAfter.isPresent()) {
            try {
                after = Optional.of(duration(decideAfter.get()));
            } catch (IllegalArgumentException e) {
                problems.add(new InvalidFields.Problem("decideAfter", e.getMessage()));
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidFields(problems);
        }
        try {
            return Optional.of(new AbTest(parsed, share[0], after, by[0]));
        } catch (InvalidFields e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw InvalidFields.of("variants", e.getMessage());
        }
    }

    private static void field(List<InvalidFields.Problem> problems, String field, Runnable parse) {
        try {
            parse.run();
        } catch (InvalidFields e) {
            problems.addAll(e.problems());   // a parser that names the value at fault (a variant)
        } catch (IllegalArgumentException e) {
            problems.add(new InvalidFields.Problem(field, e.getMessage()));
        }
    }

    static int share(String text) {
        Matcher m = SHARE.matcher(text.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("must be a percentage such as 20%, got '" + text + "'");
        }
        int percent = Integer.parseInt(m.group(1));
        if (percent < 1 || percent > 50) {
            throw new IllegalArgumentException("must be 1%-50%, got " + text.strip());
        }
        return percent;
    }

    static Duration duration(String text) {
        Matcher m = DURATION.matcher(text.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("must be a duration such as 90m, 4h or 2d, got '" + text + "'");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
    }
}
