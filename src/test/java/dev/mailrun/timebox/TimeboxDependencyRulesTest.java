package dev.mailrun.timebox;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import dev.mailrun.testing.MainClasses;
import org.junit.jupiter.api.Test;

class TimeboxDependencyRulesTest {

    @Test
    void timebox_should_depend_only_on_the_jdk_time_and_collection_classes() {
        JavaClasses timebox = MainClasses.in("dev.mailrun.timebox");

        classes().should().onlyDependOnClassesThat()
                .resideInAnyPackage("dev.mailrun.timebox", "java.lang", "java.lang.invoke", "java.lang.runtime",
                        "java.time", "java.util", "java.util.function")
                .check(timebox);
    }
}
