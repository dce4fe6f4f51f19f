package dev.lanes.internal.sqlite;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Lanes links against the sqlite-jdbc driver on the class path: every field, method and
 * constructor of the driver that Lanes' code names exists there with the type Lanes was compiled
 * against, so none of them can fail with {@code NoSuchFieldError} or {@code NoSuchMethodError}.
 * Run on the declared driver by default, and on the oldest supported one by {@code
 * -Dlanes.test.sqlite-jdbc=...} (see lanes-core's pom), it covers both ends of the range. The
 * driver's internals ({@code org.sqlite.core}) are reached from {@link DriverInternals} alone,
 * which checks them once itself.
 */
class DriverLinkageTest {
    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        // Lanes' main classes alone, from their own directory: the driver's members are looked
        // up by reflection, as the JVM resolves them (scanning the class path is slow)
        classes = new ClassFileImporter().importPath(mainClasses());
    }

    private static Path mainClasses() {
        try {
            return Path.of(DriverInternals.class.getProtectionDomain().getCodeSource()
                    .getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void everyDriverMemberLanesUsesExistsWithItsType() {
        List<String> unresolved = new ArrayList<>();
        int checked = 0;
        for (JavaClass c : classes) {
            if (!c.getPackageName().startsWith("dev.lanes")) {
                continue;
            }
            for (JavaAccess<?> access : c.getAccessesFromSelf()) {
                AccessTarget target = access.getTarget();
                if (!target.getOwner().getPackageName().startsWith("org.sqlite")) {
                    continue;
                }
                checked++;
                String problem = problem(target);
                if (problem != null) {
                    unresolved.add(access.getDescription() + ": " + problem);
                }
            }
        }
        assertThat(checked).as("accesses to the driver found").isGreaterThan(40);
        assertThat(unresolved).as("members the driver on the class path lacks").isEmpty();
    }

    /**
     * Null when the JVM would resolve {@code target} on the driver loaded now, as it would the
     * instruction (the owner, its superclasses, then its interfaces), with the type Lanes was
     * compiled against; else what is wrong.
     */
    private static String problem(AccessTarget target) {
        Class<?> owner = target.getOwner().reflect();
        if (target instanceof AccessTarget.FieldAccessTarget) {
            Class<?> type = ((AccessTarget.FieldAccessTarget) target).getRawType().reflect();
            for (Class<?> c : hierarchy(owner)) {
                for (java.lang.reflect.Field f : c.getDeclaredFields()) {
                    if (f.getName().equals(target.getName())) {
                        return f.getType() == type ? null : "is a " + f.getType().getName();
                    }
                }
            }
            return "no such field";
        }
        Class<?>[] parameters = ((AccessTarget.CodeUnitAccessTarget) target)
                .getRawParameterTypes().stream().map(JavaClass::reflect).toArray(Class<?>[]::new);
        if (target instanceof AccessTarget.ConstructorCallTarget
                || target instanceof AccessTarget.ConstructorReferenceTarget) {
            try {
                owner.getDeclaredConstructor(parameters);
                return null;
            } catch (NoSuchMethodException e) {
                return "no such constructor";
            }
        }
        Class<?> returns = ((AccessTarget.CodeUnitAccessTarget) target).getRawReturnType()
                .reflect();
        for (Class<?> c : hierarchy(owner)) {
            try {
                Method m = c.getDeclaredMethod(target.getName(), parameters);
                return m.getReturnType() == returns ? null
                        : "returns " + m.getReturnType().getName();
            } catch (NoSuchMethodException e) {
                // on to the next in the hierarchy
            }
        }
        return "no such method";
    }

    /** {@code c}, its superclasses, then every interface of them, as the JVM looks. */
    private static List<Class<?>> hierarchy(Class<?> c) {
        List<Class<?>> classes = new ArrayList<>();
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            classes.add(k);
        }
        List<Class<?>> all = new ArrayList<>(classes);
        for (int i = 0; i < all.size(); i++) {
            for (Class<?> in : all.get(i).getInterfaces()) {
                if (!all.contains(in)) {
                    all.add(in);
                }
            }
        }
        return all;
    }

    @Test
    void onlyTheAdapterReachesTheDriversInternals() {
        noClasses().that().resideInAPackage("dev.lanes..")
                .and(DescribedPredicate.not(JavaClass.Predicates.belongToAnyOf(
                        DriverInternals.class)))
                .should().dependOnClassesThat().resideInAPackage("org.sqlite.core..")
                .because("the driver keeps org.sqlite.core free to change; DriverInternals "
                        + "checks what it uses once, at load")
                .check(classes);
    }

    @Test
    void theAdapterFindsEveryInternalItCalls() {
        assertThat(DriverInternals.missing()).isNull();
    }
}
