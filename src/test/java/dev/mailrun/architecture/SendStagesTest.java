package dev.mailrun.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.library.Architectures;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;
import dev.mailrun.campaign.send.deliver.violation.DeliverySettingARate;
import dev.mailrun.campaign.send.pace.violation.PaceReachingIntoRecording;
import dev.mailrun.mail.smtp.SendRateLimiter;
import dev.mailrun.testing.MainClasses;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The sending task by stage (docs/ARCHITECTURE.md, "The sending task"): the root holds the task and
 * the run that drive the stages; {@code claim} takes recipients from the queue, {@code deliver}
 * hands them to the relays, {@code record} writes their results and the checkpoint, {@code pace}
 * owns every rate (the only stage that sets a limiter's rate); {@code scope} is what one run's stages share, {@code policy} what the calendar
 * allows and {@code route} the relays. Each stage reaches only the stages below it.
 */
class SendStagesTest {

    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        main = MainClasses.in("dev.mailrun.campaign.send");
    }

    static Architectures.LayeredArchitecture stages() {
        return Architectures.layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("Task").definedBy("dev.mailrun.campaign.send")
                .layer("Claim").definedBy("dev.mailrun.campaign.send.claim..")
                .layer("Deliver").definedBy("dev.mailrun.campaign.send.deliver..")
                .layer("Record").definedBy("dev.mailrun.campaign.send.record..")
                .layer("Pace").definedBy("dev.mailrun.campaign.send.pace..")
                .layer("Scope").definedBy("dev.mailrun.campaign.send.scope..")
                .layer("Policy").definedBy("dev.mailrun.campaign.send.policy..")
                .layer("Route").definedBy("dev.mailrun.campaign.send.route..")
                .whereLayer("Task").mayNotBeAccessedByAnyLayer()
                .whereLayer("Claim").mayOnlyBeAccessedByLayers("Task")
                .whereLayer("Deliver").mayOnlyBeAccessedByLayers("Task")
                .whereLayer("Record").mayOnlyBeAccessedByLayers("Task", "Claim", "Deliver")
                .whereLayer("Pace").mayOnlyBeAccessedByLayers("Task", "Claim", "Deliver", "Record")
                .whereLayer("Scope").mayOnlyBeAccessedByLayers("Task", "Claim", "Deliver", "Record", "Pace")
                .whereLayer("Policy").mayOnlyBeAccessedByLayers("Task", "Claim", "Deliver", "Record", "Pace", "Scope")
                .whereLayer("Route").mayOnlyBeAccessedByLayers("Task", "Claim", "Deliver", "Record", "Pace", "Policy");
    }

    @Test
    void each_stage_reaches_only_the_stages_below_it() {
        stages().check(main);
    }

    @Test
    void no_two_stages_depend_on_each_other() {
        SlicesRuleDefinition.slices().matching("dev.mailrun.campaign.send.(*)..").should().beFreeOfCycles().check(main);
    }

    @Test
    void the_stage_rule_fails_when_pacing_reaches_into_recording() {
        JavaClasses withViolation = new ClassFileImporter()
                .withImportOption(location -> ImportOption.Predefined.DO_NOT_INCLUDE_TESTS.includes(location)
                        || location.contains("/campaign/send/pace/violation/"))
                .importPackages("dev.mailrun.campaign.send");
        assertThat(withViolation.contain(PaceReachingIntoRecording.class)).isTrue();
        EvaluationResult result = stages().evaluate(withViolation);
        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().getDetails())
                .allSatisfy(line -> assertThat(line).contains("PaceReachingIntoRecording"))
                .anySatisfy(line -> assertThat(line).contains("ResultBuffer"));
    }

    /** Every rate has one owner: only the pace sets the rate of a limiter the connections send through. */
    static ArchRule onlyThePaceSetsRates() {
        return noClasses().that().resideInAPackage("dev.mailrun.campaign..")
                .and().resideOutsideOfPackage("dev.mailrun.campaign.send.pace..")
                .should().callMethod(SendRateLimiter.class, "setRate", double.class)
                .because("a relay's and a domain group's rates are changed in one place (docs/ARCHITECTURE.md)");
    }

    @Test
    void only_the_pace_sets_a_limiters_rate() {
        onlyThePaceSetsRates().check(main);
    }

    @Test
    void the_rate_rule_fails_when_delivery_sets_a_rate_itself() {
        JavaClasses withViolation = new ClassFileImporter()
                .withImportOption(location -> ImportOption.Predefined.DO_NOT_INCLUDE_TESTS.includes(location)
                        || location.contains("/campaign/send/deliver/violation/"))
                .importPackages("dev.mailrun.campaign.send");
        assertThat(withViolation.contain(DeliverySettingARate.class)).isTrue();
        EvaluationResult result = onlyThePaceSetsRates().evaluate(withViolation);
        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().getDetails())
                .allSatisfy(line -> assertThat(line).contains("DeliverySettingARate"));
    }
}
