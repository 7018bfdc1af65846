package dev.mailrun.mail.template;

import java.util.List;
import java.util.Objects;

/** Loading a template either compiles all of its files or lists every problem found. */
public sealed interface LoadResult {

    record Loaded(CompiledTemplate template) implements LoadResult {
        public Loaded {
            Objects.requireNonNull(template, "template");
        }
    }

    record Invalid(List<TemplateProblem> problems) implements LoadResult {
        public Invalid {
            problems = List.copyOf(problems);
            if (problems.isEmpty()) {
                throw new IllegalArgumentException("an invalid template needs at least one problem");
            }
        }
    }
}
