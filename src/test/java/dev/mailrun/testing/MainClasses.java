package dev.mailrun.testing;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/**
 * mailrun's main classes (tests left out) as the architecture rules read them, imported once per test
 * JVM: each rule class importing them again cost the suite several seconds apiece. A subset is the
 * same classes a narrower import would give, and with the rules' layered checks considering only
 * dependencies inside their layers (and the others reading outgoing dependencies), the same verdicts.
 * The tests that add a violation fixture import on their own: a fixture in the shared set would show
 * up in every rule that reads who accesses a class.
 */
public final class MainClasses {

    private static JavaClasses all;

    private MainClasses() {}

    /** Every main class of {@code dev.mailrun}. */
    public static synchronized JavaClasses all() {
        if (all == null) {
            all = new ClassFileImporter()
                    .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                    .importPackages("dev.mailrun");
        }
        return all;
    }

    /** The main classes in {@code pkg} and its subpackages. */
    public static JavaClasses in(String pkg) {
        return all().that(resideInAPackage(pkg + ".."));
    }
}
