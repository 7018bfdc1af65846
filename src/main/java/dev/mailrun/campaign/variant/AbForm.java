package dev.mailrun.campaign.variant;

import dev.mailrun.campaign.model.AbTest;
import dev.mailrun.campaign.model.PickBy;
import dev.mailrun.campaign.model.Variant;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The A/B options of {@code campaign create} as the operator wrote them ({@code --variant},
 * {@code --test-share 20%}, {@code --decide-after 4h} or {@code --decide manual},
 * {@code --pick-by manual}), read into an {@link AbTest}. Each problem is one line naming the option.
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
     * @throws IllegalArgumentException naming the first option that is wrong
     */
    public Optional<AbTest> parse() {
        if (variants.isEmpty()) {
            if (testShare.isPresent() || decideAfter.isPresent() || decide.isPresent() || pickBy.isPresent()) {
                throw new IllegalArgumentException("--test-share, --decide-after, --decide and --pick-by need --variant");
            }
            return Optional.empty();
        }
        if (variants.size() > AbTest.MAX_VARIANTS) {
            throw new IllegalArgumentException("--variant: at most " + AbTest.MAX_VARIANTS + " variants, got " + variants.size());
        }
        List<Variant> parsed = new ArrayList<>();
        for (String v : variants) {
            parsed.add(Variant.parse(v));
        }
        if (decideAfter.isPresent() && decide.isPresent()) {
            throw new IllegalArgumentException("--decide-after and --decide manual exclude each other");
        }
        decide.filter(d -> !d.equals("manual")).ifPresent(d -> {
            throw new IllegalArgumentException("--decide must be manual (or use --decide-after), got '" + d + "'");
        });
        PickBy by = pickBy.map(PickBy::parse).orElse(PickBy.MANUAL);
        return Optional.of(new AbTest(parsed, share(testShare.orElseThrow(
                () -> new IllegalArgumentException("--test-share is required with --variant, e.g. --test-share 20%"))),
                decideAfter.map(AbForm::duration), by));
    }

    static int share(String text) {
        Matcher m = SHARE.matcher(text.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("--test-share must be a percentage such as 20%, got '" + text + "'");
        }
        int percent = Integer.parseInt(m.group(1));
        if (percent < 1 || percent > 50) {
            throw new IllegalArgumentException("--test-share must be 1%-50%, got " + text.strip());
        }
        return percent;
    }

    static Duration duration(String text) {
        Matcher m = DURATION.matcher(text.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("--decide-after must be a duration such as 90m, 4h or 2d, got '" + text + "'");
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
