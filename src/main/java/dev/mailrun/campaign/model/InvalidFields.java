package dev.mailrun.campaign.model;

import java.util.List;
import java.util.stream.Collectors;

/** An operator's request with one or more bad values: each named with its field and the reason. */
public final class InvalidFields extends IllegalArgumentException {

    /** One bad value: the field (as the API names it) and why. */
    public record Problem(String field, String reason) {}

    private final transient List<Problem> problems;

    public InvalidFields(List<Problem> problems) {
        super(problems.stream().map(p -> p.field() + ": " + p.reason()).collect(Collectors.joining("; ")));
        this.problems = List.copyOf(problems);
    }

    public static InvalidFields of(String field, String reason) {
        return new InvalidFields(List.of(new Problem(field, reason)));
    }

    public List<Problem> problems() {
        return problems;
    }
}
