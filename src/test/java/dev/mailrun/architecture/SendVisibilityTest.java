package dev.mailrun.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.members;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaConstructor;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import dev.mailrun.campaign.send.route.violation.PublicForItsPackageOnly;
import java.lang.reflect.RecordComponent;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import dev.mailrun.testing.MainClasses;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code campaign.send} is public only at its entry points. Outside it, code uses the types of
 * {@link #ENTRY_POINTS}; inside it, a type or member is public only when another of its packages uses
 * it (Java has no visibility between a package and its sibling, so the stages' shared types stay
 * public); whatever only its own package uses is package-private.
 *
 * <p>Only the main classes count as users: a test in another package that needs a member either moves
 * into the member's package or is named in {@link #TEST_SEAMS} with its reason.
 */
class SendVisibilityTest {

    private static final String SEND = "dev.mailrun.campaign.send";

    /**
     * The public types of campaign.send that code outside it uses, by name below {@code campaign.send}:
     * the task and what wiring it takes (app), the messages a test send builds and the values a web
     * version renders (campaign), the configuration's values (app.config), the relays and rates status
     * reads (campaign.report, metrics) and the listener the metrics implement.
     */
    static final Set<String> ENTRY_POINTS = Set.of(
            "SendDependencies",
            "SendTask",
            "deliver.MessageFactory",
            "deliver.RecipientValues",
            "deliver.TrackingLinks",
            "deliver.UnsubscribeLinks",
            "pace.RouteRate",
            "policy.DailyCap",
            "policy.SendCalendar",
            "route.Relay",
            "route.RelayConfigs",
            "route.RelayConfigs.Disagreement",
            "route.RelayFingerprint",
            "route.Relays",
            "scope.FailureRule",
            "scope.FlushCadence",
            "scope.HardBounceRule",
            "scope.SendEvents",
            "scope.SendEvents.Outcome",
            "scope.SendSettings",
            "scope.Timing");

    /** Public members that only tests in another package use, and why they stay public. */
    static final Map<String, String> TEST_SEAMS = Map.of(
            "pace.RelayShare.RENEWAL", "SharedRelayTest moves its run's nano clock one renewal at a time",
            "route.RelayConfigs.LIVE", "RelayDisagreementTest lets a worker's recorded settings age past it",
            "policy.DailyCap.active()", "PolicyConfigTest: without policy keys the configuration caps no day");

    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        main = MainClasses.all();
    }

    @Test
    void outside_campaign_send_only_its_entry_points_are_used() {
        Set<String> usedOutside = main.stream()
                .filter(c -> c.getPackageName().startsWith(SEND) && visible(c))
                .filter(c -> usedFrom(c, from -> !from.getPackageName().startsWith(SEND)))
                .map(c -> c.getName().substring(SEND.length() + 1).replace('$', '.'))
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(usedOutside)
                .as("the public types of campaign.send that code outside it uses; a type new here is a new entry point"
                        + " (list it in ENTRY_POINTS on purpose), a type gone from here should no longer be public")
                .containsExactlyInAnyOrderElementsOf(ENTRY_POINTS);
    }

    @Test
    void every_public_type_of_campaign_send_is_used_outside_its_own_package() {
        publicTypesUsedOutsideTheirPackage(SEND + "..").check(main);
    }

    @Test
    void every_public_member_of_campaign_send_is_used_outside_its_own_package() {
        publicMembersUsedOutsideTheirPackage(SEND + "..").check(main);
    }

    @Test
    void every_test_seam_is_a_public_member_that_only_tests_use_outside_its_package() {
        Set<String> onlyTestsUseOutside = main.stream()
                .filter(c -> c.getPackageName().startsWith(SEND))
                .flatMap(c -> c.getMembers().stream())
                .filter(m -> mustBeUsedOutside(m) && !accessedFromAnotherPackage(m))
                .map(SendVisibilityTest::shortName)
                .collect(Collectors.toSet());
        assertThat(onlyTestsUseOutside).as("TEST_SEAMS names members that are public for tests alone")
                .containsAll(TEST_SEAMS.keySet());
    }

    @Test
    void the_rules_fail_on_a_type_and_a_method_public_for_their_own_package_only() {
        JavaClasses withViolation = new ClassFileImporter()
                .withImportOption(location -> location.contains("/campaign/send/route/violation/"))
                .importPackages(SEND + ".route.violation");
        assertThat(withViolation.contain(PublicForItsPackageOnly.class)).isTrue();

        EvaluationResult types = publicTypesUsedOutsideTheirPackage(SEND + ".route.violation..").evaluate(withViolation);
        assertThat(types.getFailureReport().getDetails()).singleElement()
                .satisfies(line -> assertThat(line).contains("PublicForItsPackageOnly", "only its own package uses it"));

        EvaluationResult members = publicMembersUsedOutsideTheirPackage(SEND + ".route.violation..").evaluate(withViolation);
        assertThat(members.getFailureReport().getDetails()).singleElement()
                .satisfies(line -> assertThat(line).contains("PublicForItsPackageOnly.size()", "only its own package uses it"));
    }

    static ArchRule publicTypesUsedOutsideTheirPackage(String packages) {
        return classes().that().resideInAPackage(packages).and().arePublic()
                .should(new ArchCondition<>("be used outside their own package") {
                    @Override
                    public void check(JavaClass c, ConditionEvents events) {
                        if (visible(c) && !usedFrom(c, from -> !from.getPackageName().equals(c.getPackageName()))) {
                            events.add(SimpleConditionEvent.violated(c, c.getName()
                                    + " is public, but only its own package uses it: make it package-private"));
                        }
                    }
                })
                .allowEmptyShould(true);
    }

    static ArchRule publicMembersUsedOutsideTheirPackage(String packages) {
        return members().that().areDeclaredInClassesThat().resideInAPackage(packages)
                .should(new ArchCondition<>("be used outside their own package when public") {
                    @Override
                    public void check(JavaMember m, ConditionEvents events) {
                        if (mustBeUsedOutside(m) && !accessedFromAnotherPackage(m)
                                && !TEST_SEAMS.containsKey(shortName(m))) {
                            events.add(SimpleConditionEvent.violated(m, shortName(m)
                                    + " is public, but only its own package uses it: make it package-private"));
                        }
                    }
                })
                .allowEmptyShould(true);
    }

    /** Public in effect: public, and so is every class it is nested in. */
    private static boolean visible(JavaClass c) {
        for (JavaClass e = c; e != null; e = e.getEnclosingClass().orElse(null)) {
            if (!e.getModifiers().contains(JavaModifier.PUBLIC)) {
                return false;
            }
        }
        return true;
    }

    /**
     * A class of {@code from} depends on {@code c} (names it, calls it, extends it), or {@code c} is in
     * the signature of a public member of its package that such a class uses: passing along what another
     * class hands out needs the type to be public too.
     */
    private static boolean usedFrom(JavaClass c, Predicate<JavaClass> from) {
        for (Dependency d : c.getDirectDependenciesToSelf()) {
            if (from.test(d.getOriginClass())) {
                return true;
            }
        }
        for (JavaClass sibling : c.getPackage().getClasses()) {
            for (JavaCodeUnit u : sibling.getCodeUnits()) {
                boolean inSignature = u.getRawReturnType().equals(c) || u.getRawParameterTypes().contains(c);
                if (inSignature && u.getModifiers().contains(JavaModifier.PUBLIC) && visible(sibling)
                        && u.getAccessesToSelf().stream().anyMatch(a -> from.test(a.getOriginOwner()))) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Whether {@code m} is public by choice, and so must have a user outside its package. Not so where
     * Java makes it public: what an interface declares, a record's accessors and canonical constructor,
     * an enum's constants and {@code values}/{@code valueOf}, a method overriding or implementing
     * another's, and what the compiler generates. Constants (static final primitives and strings) are
     * left out too: the compiler copies their values into the code using them, so their uses leave no trace.
     */
    private static boolean mustBeUsedOutside(JavaMember m) {
        JavaClass owner = m.getOwner();
        if (!m.getModifiers().contains(JavaModifier.PUBLIC) || !visible(owner) || owner.isInterface()
                || m.getModifiers().contains(JavaModifier.SYNTHETIC) || m.getModifiers().contains(JavaModifier.BRIDGE)) {
            return false;
        }
        // ArchUnit keeps a record's fields unordered: its components, in order, come from the class itself.
        List<RecordComponent> components = owner.isRecord() ? List.of(owner.reflect().getRecordComponents()) : List.of();
        if (m instanceof JavaField f) {
            boolean constant = f.getModifiers().containsAll(Set.of(JavaModifier.STATIC, JavaModifier.FINAL))
                    && (f.getRawType().isPrimitive() || f.getRawType().isEquivalentTo(String.class));
            return !constant && !(owner.isEnum() && f.getRawType().equals(owner));
        }
        if (m instanceof JavaConstructor ctor) {
            return !(owner.isRecord() && ctor.getRawParameterTypes().stream().map(JavaClass::getName).toList()
                    .equals(components.stream().map(r -> r.getType().getName()).toList()));
        }
        JavaMethod method = (JavaMethod) m;
        if (owner.isRecord() && method.getRawParameterTypes().isEmpty()
                && components.stream().anyMatch(f -> f.getName().equals(method.getName()))) {
            return false;
        }
        if (owner.isEnum() && (method.getName().equals("values") || method.getName().equals("valueOf"))) {
            return false;
        }
        return !overrides(method);
    }

    private static boolean overrides(JavaMethod method) {
        String[] params = method.getRawParameterTypes().stream().map(JavaClass::getName).toArray(String[]::new);
        if (List.of("toString", "equals", "hashCode").contains(method.getName())) {
            return true;
        }
        JavaClass owner = method.getOwner();
        return owner.getAllRawSuperclasses().stream().anyMatch(s -> s.tryGetMethod(method.getName(), params).isPresent())
                || owner.getAllRawInterfaces().stream().anyMatch(i -> i.tryGetMethod(method.getName(), params).isPresent());
    }

    private static boolean accessedFromAnotherPackage(JavaMember m) {
        String own = m.getOwner().getPackageName();
        return m.getAccessesToSelf().stream().anyMatch(a -> !a.getOriginOwner().getPackageName().equals(own));
    }

    /** {@code pace.RelayShare.RENEWAL}, {@code route.Relays.find(String)}: as the failures and {@link #TEST_SEAMS} name them. */
    private static String shortName(JavaMember m) {
        String owner = m.getOwner().getName();
        String type = owner.startsWith(SEND + ".") ? owner.substring(SEND.length() + 1) : owner;
        String name = m instanceof JavaConstructor ? "<init>" : m.getName();
        String params = m instanceof JavaCodeUnit u ? u.getRawParameterTypes().stream().map(JavaClass::getSimpleName)
                .collect(Collectors.joining(", ", "(", ")")) : "";
        return type.replace('$', '.') + "." + name + params;
    }
}
