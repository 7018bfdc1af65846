package dev.mailrun.campaign.model;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/** An operator's request with one or more bad values: each named with its field and the reason. */
public final class InvalidFields extends IllegalArgumentException {

    /**
     * One bad value: the field (as the domain names it), the one of the field's values it is about when
     * the field holds several (a header's name, a variant's name, a file, a send window, as the operator
     * gave it), and why. The item stays apart so that each interface can put it where it reads well:
     * the command line after its option ({@code --header X-Tag: contains …}), the API and the console
     * at the start of the reason ({@link #reason()}).
     */
    public record Problem(String field, Optional<String> item, String detail) {

        public Problem {
            Objects.requireNonNull(field, "field");
            Objects.requireNonNull(item, "item");
            Objects.requireNonNull(detail, "detail");
        }

        /** A problem of the field as a whole. */
        public Problem(String field, String reason) {
            this(field, Optional.empty(), reason);
        }

        /** A problem of one of the field's values, {@code item} as the operator would recognise it. */
        public static Problem about(String field, String item, String detail) {
            return new Problem(field, Optional.of(item), detail);
        }

        /** Why, as a sentence beside the field: the item first when there is one ({@code X-Tag: contains …}). */
        public String reason() {
            return item.map(i -> i + ": " + detail).orElse(detail);
        }
    }

    private final transient List<Problem> problems;

    public InvalidFields(List<Problem> problems) {
        super(problems.stream().map(p -> p.field() + ": " + p.reason()).collect(Collectors.joining("; ")));
        this.problems = List.copyOf(problems);
    }

    public static InvalidFields of(String field, String reason) {
        return new InvalidFields(List.of(new Problem(field, reason)));
    }

    /** One problem of one of the field's values ({@link Problem#about}). */
    public static InvalidFields about(String field, String item, String detail) {
        return new InvalidFields(List.of(Problem.about(field, item, detail)));
    }

    public List<Problem> problems() {
        return problems;
    }
}
