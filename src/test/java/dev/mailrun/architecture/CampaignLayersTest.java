package dev.mailrun.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.library.Architectures;
import dev.mailrun.campaign.importing.violation.ImporterReachingIntoSend;
import dev.mailrun.campaign.store.violation.TableReachingIntoReports;
import dev.mailrun.testing.MainClasses;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The inside of {@code dev.mailrun.campaign}, enforced (docs/ARCHITECTURE.md, "The campaign
 * package"). The root holds the operator's API and sits on top, beside {@code report} (what status
 * reads: counts, holds, ETA); {@code model} (values) and
 * {@code store} (one class per table) are shared by every feature; the features — send,
 * importing, audience, bounce, reply, feedback, unsubscribe, hygiene, suppression, content — do not reach into each other,
 * except bounce into unsubscribe for the signed return paths both of them read, feedback into unsubscribe
 * for what a provider's unsubscribe event does (the one-click link's effect), audience's sign-ups
 * into unsubscribe (their forms and links are signed as the other links are) and content (the
 * confirmation message is a stored template), audience into importing
 * for the reader, row checks and reject reasons every import shares, send and report into
 * variant (an A/B test: where it stands, per-variant figures), and feedback into
 * bounce for the bounce rules and rate breakers that the providers' events share with the bounce
 * mailbox.
 */
class CampaignLayersTest {

    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        main = MainClasses.in("dev.mailrun.campaign");
    }

    static Architectures.LayeredArchitecture campaignLayers() {
        return Architectures.layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("Api").definedBy("dev.mailrun.campaign")
                .layer("Report").definedBy("dev.mailrun.campaign.report..")
                .layer("Send").definedBy("dev.mailrun.campaign.send..")
                .layer("Importing").definedBy("dev.mailrun.campaign.importing..")
                .layer("Audience").definedBy("dev.mailrun.campaign.audience..")
                .layer("Attach").definedBy("dev.mailrun.campaign.attach..")
                .layer("Variant").definedBy("dev.mailrun.campaign.variant..")
                .layer("Bounce").definedBy("dev.mailrun.campaign.bounce..")
                .layer("Reply").definedBy("dev.mailrun.campaign.reply..")
                .layer("Feedback").definedBy("dev.mailrun.campaign.feedback..")
                .layer("Unsubscribe").definedBy("dev.mailrun.campaign.unsubscribe..")
                .layer("Hygiene").definedBy("dev.mailrun.campaign.hygiene..")
                .layer("Suppression").definedBy("dev.mailrun.campaign.suppression..")
                .layer("Tracking").definedBy("dev.mailrun.campaign.tracking..")
                .layer("Content").definedBy("dev.mailrun.campaign.content..")
                .layer("Access").definedBy("dev.mailrun.campaign.access..")
                .layer("Store").definedBy("dev.mailrun.campaign.store..")
                .layer("Model").definedBy("dev.mailrun.campaign.model..")
                .whereLayer("Api").mayNotBeAccessedByAnyLayer()
                .whereLayer("Report").mayNotBeAccessedByAnyLayer()
                .whereLayer("Send").mayOnlyBeAccessedByLayers("Api", "Report")
                .whereLayer("Importing").mayOnlyBeAccessedByLayers("Api", "Audience")
                .whereLayer("Audience").mayOnlyBeAccessedByLayers("Api")
                .whereLayer("Attach").mayOnlyBeAccessedByLayers("Api", "Importing", "Send")
                .whereLayer("Variant").mayOnlyBeAccessedByLayers("Api", "Report", "Send")
                .whereLayer("Bounce").mayOnlyBeAccessedByLayers("Feedback")
                .whereLayer("Reply").mayNotBeAccessedByAnyLayer()
                .whereLayer("Feedback").mayNotBeAccessedByAnyLayer()
                .whereLayer("Unsubscribe").mayOnlyBeAccessedByLayers("Api", "Bounce", "Feedback", "Audience")
                .whereLayer("Hygiene").mayNotBeAccessedByAnyLayer()
                .whereLayer("Suppression").mayOnlyBeAccessedByLayers("Api")
                .whereLayer("Tracking").mayNotBeAccessedByAnyLayer()
                .whereLayer("Content").mayOnlyBeAccessedByLayers("Api", "Send", "Importing", "Variant", "Audience")
                .whereLayer("Access").mayNotBeAccessedByAnyLayer()
                .whereLayer("Store").mayOnlyBeAccessedByLayers("Api", "Report", "Send", "Importing", "Audience", "Bounce", "Reply", "Feedback",
                        "Unsubscribe", "Suppression", "Tracking", "Variant", "Content", "Access")
                .whereLayer("Model").mayOnlyBeAccessedByLayers("Api", "Report", "Send", "Importing", "Audience", "Attach", "Bounce", "Reply", "Feedback",
                        "Unsubscribe", "Hygiene", "Suppression", "Tracking", "Store", "Variant", "Content", "Access");
    }

    @Test
    void campaign_features_reach_each_other_only_through_the_api_model_and_store() {
        campaignLayers().check(main);
    }

    @Test
    void the_layer_rule_fails_when_the_importer_reaches_into_the_send_package() {
        // The real rule over the real classes plus one test class in campaign.importing that uses
        // campaign.send: the rule must report exactly that dependency.
        JavaClasses withViolation = new ClassFileImporter()
                .withImportOption(location -> ImportOption.Predefined.DO_NOT_INCLUDE_TESTS.includes(location)
                        || location.contains("/campaign/importing/violation/"))
                .importPackages("dev.mailrun.campaign");
        assertThat(withViolation.contain(ImporterReachingIntoSend.class)).isTrue();
        EvaluationResult result = campaignLayers().evaluate(withViolation);
        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().getDetails())
                .allSatisfy(line -> assertThat(line).contains("ImporterReachingIntoSend"))
                .anySatisfy(line -> assertThat(line).contains("SendSettings"));
    }

    /**
     * The tables know rows and values only: {@code store} (and the recipient table's statement
     * holders in {@code store.recipient}) use the model, the db helpers, the outbox's entry point
     * (the events of their changes) and the JDBC and JSON libraries, never a feature or the API that reads them.
     */
    static ArchRule tablesKnowOnlyRowsAndValues() {
        return classes().that().resideInAPackage("dev.mailrun.campaign.store..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.mailrun.campaign.store..",
                        "dev.mailrun.campaign.model..", "dev.mailrun.db..", "dev.mailrun.events", "java..", "javax.sql..",
                        "com.fasterxml.jackson..", "com.mysql.cj.jdbc..")
                .because("each table's SQL is owned by the store, below every feature (docs/ARCHITECTURE.md)");
    }

    @Test
    void the_tables_use_only_the_model_and_the_db_helpers_of_ours() {
        tablesKnowOnlyRowsAndValues().check(main);
    }

    @Test
    void the_table_rule_fails_when_a_table_reaches_into_the_campaign_api() {
        JavaClasses withViolation = new ClassFileImporter()
                .withImportOption(location -> ImportOption.Predefined.DO_NOT_INCLUDE_TESTS.includes(location)
                        || location.contains("/campaign/store/violation/"))
                .importPackages("dev.mailrun.campaign");
        assertThat(withViolation.contain(TableReachingIntoReports.class)).isTrue();
        EvaluationResult result = tablesKnowOnlyRowsAndValues().evaluate(withViolation);
        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().getDetails())
                .allSatisfy(line -> assertThat(line).contains("TableReachingIntoReports"));
    }
}
