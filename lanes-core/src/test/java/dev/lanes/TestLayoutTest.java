package dev.lanes;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The layout of the test tree: a test in {@code dev.lanes} is black-box, written against the
 * public API alone, so that the internals can change under it; a test that needs an internal
 * type (a fault injector, the manual clock, a package-private unit) lives in the internal package
 * it tests. {@link TestRuntime} is the one bridge: it hands a manual clock to {@link Lanes}
 * through a package-private test seam, for the internal packages' tests.
 */
class TestLayoutTest {
    /** The compiled tests, read from their own directory (scanning the class path is slow). */
    private static final JavaClasses TESTS = new ClassFileImporter().importPath(testClasses());

    private static Path testClasses() {
        try {
            return Path.of(TestLayoutTest.class.getProtectionDomain().getCodeSource()
                    .getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void testsOfThePublicApiUseNoInternalType() {
        noClasses().that().resideInAPackage("dev.lanes")
                .and(not(belongToAnyOf(TestRuntime.class)))
                .should().dependOnClassesThat().resideInAPackage("dev.lanes.internal..")
                .because("a dev.lanes test is black-box; a white-box test goes into the "
                        + "internal package it tests")
                .check(TESTS);
    }
}
