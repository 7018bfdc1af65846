package dev.mailrun.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;
import dev.mailrun.csv.RejectCounts;
import dev.mailrun.csv.RejectReason;
import dev.mailrun.csv.RejectedRow;
import dev.mailrun.testing.MainClasses;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package map of docs/ARCHITECTURE.md, enforced. Dependencies run one way:
 * timebox, db, csv and mail use nothing of ours; scheduler uses db and timebox; events uses db;
 * campaign uses scheduler, timebox, mail, db, csv and events (its writing entry point); http uses campaign and mail (http.api also events' operator calls) and is the only home of an HTTP
 * server library, split by job (server below endpoint, status, api and console, which use no other part
 * but the console the api and status); metrics uses campaign, scheduler and events and is the only home of Micrometer; health
 * uses db and scheduler; app uses all and nothing uses app.
 */
class ArchitectureTest {

    private static final String SERVER = "dev.mailrun.http.server..";
    private static final String ENDPOINT = "dev.mailrun.http.endpoint..";
    private static final String STATUS = "dev.mailrun.http.status..";
    private static final String API = "dev.mailrun.http.api..";
    private static final String CONSOLE = "dev.mailrun.http.console..";

    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        main = MainClasses.all();
    }

    @Test
    void timebox_uses_only_the_jdk_time_and_collection_apis() {
        classes().that().resideInAPackage("dev.mailrun.timebox..")
                .should().onlyDependOnClassesThat()
                .resideInAnyPackage("dev.mailrun.timebox..", "java.lang..", "java.time..", "java.util..")
                .check(main);
    }

    @Test
    void db_uses_nothing_of_ours() {
        noClasses().that().resideInAPackage("dev.mailrun.db..")
                .should().dependOnClassesThat()
                .resideInAnyPackage("dev.mailrun.timebox..", "dev.mailrun.scheduler..", "dev.mailrun.mail..",
                        "dev.mailrun.campaign..", "dev.mailrun.events..", "dev.mailrun.http..", "dev.mailrun.metrics..",
                        "dev.mailrun.health..", "dev.mailrun.app..")
                .check(main);
    }

    @Test
    void events_uses_only_db_of_ours() {
        // The outbox is below campaign: the tables write events into it, it knows no campaign type.
        noClasses().that().resideInAPackage("dev.mailrun.events..")
                .should().dependOnClassesThat()
                .resideInAnyPackage("dev.mailrun.timebox..", "dev.mailrun.scheduler..", "dev.mailrun.mail..",
                        "dev.mailrun.campaign..", "dev.mailrun.csv..", "dev.mailrun.http..", "dev.mailrun.metrics..",
                        "dev.mailrun.health..", "dev.mailrun.app..")
                .check(main);
    }

    @Test
    void campaign_writes_events_only_through_the_outbox_entry_point() {
        // Delivery, its tables and its HTTP client are the worker's business, not the domain's.
        noClasses().that().resideInAPackage("dev.mailrun.campaign..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.mailrun.events.store..", "dev.mailrun.events.delivery..")
                .check(main);
    }

    @Test
    void csv_uses_nothing_of_ours_and_only_commons_csv_besides_the_jdk() {
        classes().that().resideInAPackage("dev.mailrun.csv..")
                .should().onlyDependOnClassesThat()
                .resideInAnyPackage("dev.mailrun.csv..", "java..", "org.apache.commons.csv..")
                .check(main);
    }

    @Test
    void only_campaign_and_app_read_csv_files() {
        // The API (http.api) and the console (http.console) report an import's rejected rows, which are
        // csv's values; they read no file.
        DescribedPredicate<JavaClass> reportValues = JavaClass.Predicates.belongToAnyOf(RejectedRow.class, RejectReason.class,
                RejectCounts.class);
        noClasses().that().resideOutsideOfPackages("dev.mailrun.csv..", "dev.mailrun.campaign..", "dev.mailrun.app..")
                .should().dependOnClassesThat(JavaClass.Predicates.resideInAPackage("dev.mailrun.csv..")
                        .and(DescribedPredicate.not(reportValues)))
                .check(main);
        noClasses().that().resideOutsideOfPackages("dev.mailrun.csv..", "dev.mailrun.campaign..", "dev.mailrun.app..",
                        "dev.mailrun.http.api..", "dev.mailrun.http.console..")
                .should().dependOnClassesThat().resideInAPackage("dev.mailrun.csv..")
                .check(main);
    }

    @Test
    void mail_uses_nothing_of_ours_and_never_touches_jdbc() {
        noClasses().that().resideInAPackage("dev.mailrun.mail..")
                .should().dependOnClassesThat()
                .resideInAnyPackage("dev.mailrun.timebox..", "dev.mailrun.scheduler..", "dev.mailrun.db..",
                        "dev.mailrun.campaign..", "dev.mailrun.events..", "dev.mailrun.http..", "dev.mailrun.metrics..",
                        "dev.mailrun.health..", "dev.mailrun.app..", "java.sql..", "javax.sql..")
                .check(main);
    }

    @Test
    void scheduler_uses_only_db_and_timebox_of_ours() {
        noClasses().that().resideInAPackage("dev.mailrun.scheduler..")
                .should().dependOnClassesThat()
                .resideInAnyPackage("dev.mailrun.mail..", "dev.mailrun.campaign..", "dev.mailrun.events..",
                        "dev.mailrun.http..", "dev.mailrun.metrics..", "dev.mailrun.health..", "dev.mailrun.app..")
                .check(main);
    }

    @Test
    void campaign_uses_none_of_the_adapters_or_app() {
        noClasses().that().resideInAPackage("dev.mailrun.campaign..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.mailrun.http..", "dev.mailrun.metrics..",
                        "dev.mailrun.health..", "dev.mailrun.app..")
                .check(main);
    }

    @Test
    void metrics_uses_only_campaign_and_scheduler_of_ours() {
        noClasses().that().resideInAPackage("dev.mailrun.metrics..")
                .should().dependOnClassesThat()
                .resideInAnyPackage("dev.mailrun.timebox..", "dev.mailrun.db..", "dev.mailrun.mail..", "dev.mailrun.http..",
                        "dev.mailrun.health..", "dev.mailrun.app..")
                .check(main);
    }

    @Test
    void health_uses_only_db_and_scheduler_of_ours() {
        noClasses().that().resideInAPackage("dev.mailrun.health..")
                .should().dependOnClassesThat()
                .resideInAnyPackage("dev.mailrun.timebox..", "dev.mailrun.mail..", "dev.mailrun.campaign..",
                        "dev.mailrun.events..", "dev.mailrun.http..", "dev.mailrun.metrics..", "dev.mailrun.app..")
                .check(main);
    }

    @Test
    void only_app_uses_metrics_and_health() {
        noClasses().that().resideOutsideOfPackages("dev.mailrun.metrics..", "dev.mailrun.health..", "dev.mailrun.app..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.mailrun.metrics..", "dev.mailrun.health..")
                .check(main);
    }

    @Test
    void only_metrics_and_the_wiring_in_app_use_micrometer() {
        // The domain reports through listener interfaces it owns (RunListener, ImportListener,
        // SendEvents); the metrics library stays behind them.
        noClasses().that().resideOutsideOfPackages("dev.mailrun.metrics..", "dev.mailrun.app..")
                .should().dependOnClassesThat().resideInAnyPackage("io.micrometer..", "io.prometheus..",
                        "com.zaxxer.hikari.metrics..")
                .check(main);
    }

    @Test
    void http_uses_only_campaign_and_mail_of_ours() {
        noClasses().that().resideInAPackage("dev.mailrun.http..")
                .should().dependOnClassesThat()
                .resideInAnyPackage("dev.mailrun.timebox..", "dev.mailrun.scheduler..", "dev.mailrun.db..",
                        "dev.mailrun.metrics..", "dev.mailrun.health..", "dev.mailrun.app..")
                .check(main);
    }

    @Test
    void http_is_split_by_job_and_every_class_of_it_lives_in_one_part() {
        classes().that().resideInAPackage("dev.mailrun.http..")
                .and().doNotHaveSimpleName("package-info")
                .should().resideInAnyPackage(SERVER, ENDPOINT, STATUS, API, CONSOLE)
                .check(main);
    }

    @Test
    void the_server_knows_none_of_the_routes_it_serves() {
        // http.server is what every part stands on (listeners, limits, body reading, proxies, the shared
        // handlers); what it serves is handed to it as routes by app, so it uses no other part of http.
        noClasses().that().resideInAPackage(SERVER)
                .should().dependOnClassesThat().resideInAnyPackage(ENDPOINT, STATUS, API, CONSOLE)
                .check(main);
    }

    @Test
    void the_public_endpoints_and_the_status_routes_use_only_the_server_and_only_app_wires_them() {
        noClasses().that().resideInAPackage(ENDPOINT)
                .should().dependOnClassesThat().resideInAnyPackage(STATUS, API, CONSOLE)
                .check(main);
        noClasses().that().resideInAPackage(STATUS)
                .should().dependOnClassesThat().resideInAnyPackage(ENDPOINT, API, CONSOLE)
                .check(main);
        noClasses().that().resideOutsideOfPackages(ENDPOINT, "dev.mailrun.app..")
                .should().dependOnClassesThat().resideInAPackage(ENDPOINT)
                .check(main);
        // The console's campaign page shows the status page's charts.
        noClasses().that().resideOutsideOfPackages(STATUS, CONSOLE, "dev.mailrun.app..")
                .should().dependOnClassesThat().resideInAPackage(STATUS)
                .check(main);
    }

    @Test
    void the_api_sits_on_the_server_and_only_app_wires_it() {
        // http.api uses the server's pieces (limits, body reading, routes); the server knows nothing of
        // the API, which app hands it as one more route.
        noClasses().that().resideInAPackage(API)
                .should().dependOnClassesThat().resideInAnyPackage(ENDPOINT, STATUS, CONSOLE)
                .check(main);
        noClasses().that().resideOutsideOfPackages(API, CONSOLE, "dev.mailrun.app..")
                .should().dependOnClassesThat().resideInAPackage(API)
                .check(main);
    }

    @Test
    void the_console_sits_on_the_server_and_the_api_and_only_app_wires_it() {
        // http.console works through the API's services and authenticator and the server's pieces; neither
        // knows the console: the server asks its sessions through SessionCheck, an interface of its own.
        noClasses().that().resideInAPackage(CONSOLE)
                .should().dependOnClassesThat().resideInAPackage(ENDPOINT)
                .check(main);
        noClasses().that().resideOutsideOfPackages(CONSOLE, "dev.mailrun.app..")
                .should().dependOnClassesThat().resideInAPackage(CONSOLE)
                .check(main);
    }

    @Test
    void the_api_reaches_events_only_through_the_operators_calls() {
        // http.api calls EventLog (and reads its rows' values), as `mailrun events` does; delivery is
        // the worker's, and the server, the public endpoints and the status routes know nothing of events.
        noClasses().that().resideInAPackage("dev.mailrun.http..")
                .should().dependOnClassesThat().resideInAPackage("dev.mailrun.events.delivery..")
                .check(main);
        noClasses().that().resideInAnyPackage(SERVER, ENDPOINT, STATUS)
                .should().dependOnClassesThat().resideInAPackage("dev.mailrun.events..")
                .check(main);
    }

    @Test
    void only_app_uses_http() {
        noClasses().that().resideOutsideOfPackages("dev.mailrun.http..", "dev.mailrun.app..")
                .should().dependOnClassesThat().resideInAPackage("dev.mailrun.http..")
                .check(main);
    }

    @Test
    void only_http_and_the_wiring_in_app_use_an_http_server_library() {
        noClasses().that().resideOutsideOfPackages("dev.mailrun.http..", "dev.mailrun.app..")
                .should().dependOnClassesThat().resideInAnyPackage("org.eclipse.jetty.server..", "com.sun.net.httpserver..")
                .check(main);
    }

    @Test
    void jetty_is_used_only_by_http_the_event_delivery_and_app() {
        // The event delivery uses Jetty's HTTP client (its resolver hook guards the addresses it connects to).
        noClasses().that().resideOutsideOfPackages("dev.mailrun.http..", "dev.mailrun.events.delivery..", "dev.mailrun.app..")
                .should().dependOnClassesThat().resideInAnyPackage("org.eclipse.jetty..")
                .check(main);
    }

    @Test
    void nothing_uses_app() {
        noClasses().that().resideOutsideOfPackage("dev.mailrun.app..")
                .should().dependOnClassesThat().resideInAPackage("dev.mailrun.app..")
                .check(main);
    }

    @Test
    void every_class_lives_in_a_package_of_the_map() {
        classes().should().resideInAnyPackage("dev.mailrun.timebox..", "dev.mailrun.db..", "dev.mailrun.csv..",
                        "dev.mailrun.scheduler..",
                        "dev.mailrun.mail..", "dev.mailrun.campaign..", "dev.mailrun.events..", "dev.mailrun.http..",
                        "dev.mailrun.metrics..", "dev.mailrun.health..", "dev.mailrun.app..")
                .check(main);
    }

    @Test
    void the_sending_policy_never_reaches_back_into_the_sending_task() {
        // The sending task asks the policy (calendar, daily cap, expiry) what it may do; the policy
        // answers from the tables and the configuration alone.
        noClasses().that().resideInAPackage("dev.mailrun.campaign.send.policy..")
                .should().dependOnClassesThat().resideInAPackage("dev.mailrun.campaign.send")
                .check(main);
    }

    @Test
    void no_package_depends_on_itself_through_another() {
        // Every package is a slice of its own (campaign and campaign.send are two), so a cycle
        // between a package and one of its sub-packages is caught too.
        SlicesRuleDefinition.slices().matching("dev.mailrun.(**)").should().beFreeOfCycles().check(main);
    }

    @Test
    void no_class_uses_another_librarys_internal_packages() {
        // Internal packages change without notice between releases; where a public API cannot do
        // what is needed, mailrun writes the small piece itself behind an interface.
        noClasses().should().dependOnClassesThat().resideInAnyPackage("..internal..", "..impl..")
                .check(main);
    }

    @Test
    void the_command_line_library_is_used_only_by_the_cli_adapter() {
        noClasses().that().resideOutsideOfPackage("dev.mailrun.app.cli..")
                .should().dependOnClassesThat().resideInAPackage("picocli..")
                .check(main);
    }
}
