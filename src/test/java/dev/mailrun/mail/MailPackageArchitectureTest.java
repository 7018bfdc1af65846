package dev.mailrun.mail;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import dev.mailrun.testing.MainClasses;
import org.junit.jupiter.api.Test;

class MailPackageArchitectureTest {

    private final JavaClasses mail = MainClasses.in("dev.mailrun.mail");

    @Test
    void the_mail_package_uses_neither_jdbc_nor_any_other_mailrun_package() {
        noClasses().that().resideInAPackage("dev.mailrun.mail..")
                .should().dependOnClassesThat().resideInAnyPackage("java.sql..", "javax.sql..")
                .orShould().dependOnClassesThat(com.tngtech.archunit.base.DescribedPredicate.describe(
                        "are in another mailrun package",
                        c -> c.getPackageName().startsWith("dev.mailrun.") && !(c.getPackageName().equals("dev.mailrun.mail") || c.getPackageName().startsWith("dev.mailrun.mail."))))
                .check(mail);
    }
}
