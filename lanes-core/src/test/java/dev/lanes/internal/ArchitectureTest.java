package dev.lanes.internal;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackages;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.lanes.Database;
import dev.lanes.internal.cluster.ClusterDatabase;
import dev.lanes.internal.engine.LaneDatabase;
import dev.lanes.internal.engine.LanesRuntime;
import dev.lanes.internal.file.LeaseProbe;
import dev.lanes.internal.file.LeaseSlot;
import dev.lanes.internal.writer.WriteRequest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The direction of the dependencies between the packages of lanes-core, as ARCHITECTURE.md
 * states it: the public API reaches the implementation only through its entry points, the JDBC
 * port imports no lane that implements it, the lanes know nothing of what drives them, the
 * statement text and the foundation below it know nothing of the lanes, every database is a
 * backend of the one facade, no packages depend on each other in a cycle, and a write request's
 * command is immutable.
 */
class ArchitectureTest {
    private static final String INTERNAL = "dev.lanes.internal..";
    /** The packages that drive the lanes: the database, its cluster form, the JDBC port. */
    private static final String[] ABOVE_THE_LANES = {"dev.lanes.internal.engine..",
        "dev.lanes.internal.cluster..", "dev.lanes.internal.jdbc.."};
    /** The lanes and the feature packages beside them. */
    private static final String[] FEATURES = {"dev.lanes.internal.engine..",
        "dev.lanes.internal.cluster..", "dev.lanes.internal.jdbc..",
        "dev.lanes.internal.writer..", "dev.lanes.internal.reader..",
        "dev.lanes.internal.file..", "dev.lanes.internal.guard..",
        "dev.lanes.internal.telemetry..", "dev.lanes.internal.notify..",
        "dev.lanes.internal.scheduler.."};

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.lanes");
    }

    /** No two packages, public or internal, depend on each other, directly or around a cycle. */
    @Test
    void noPackageCycles() {
        slices().matching("dev.lanes.(**)").should().beFreeOfCycles().check(classes);
    }

    /**
     * The public API builds the runtime ({@code engine.LanesRuntime}) and a database on a cluster
     * ({@code cluster.ClusterDatabase}), and uses the value
     * conversions ({@code types}), the statement text ({@code sql.text}: the pragma table, a
     * migration's statements), the lease probe of {@code Lanes.leaseStatus} and the clock; it
     * reaches no lane, reader, JDBC or SQLite class.
     */
    @Test
    void publicApiReachesTheImplementationOnlyThroughItsEntryPoints() {
        DescribedPredicate<JavaClass> entryPoints = resideInAnyPackage(
                "dev.lanes.internal.types..", "dev.lanes.internal.sql.text..",
                "dev.lanes.internal.util..")
                .or(equivalentTo(LanesRuntime.class))
                .or(equivalentTo(ClusterDatabase.class))
                .or(equivalentTo(LeaseProbe.class))
                .or(equivalentTo(LeaseSlot.class))
                .as("an entry point of the implementation");
        noClasses().that().resideInAnyPackage("dev.lanes", "dev.lanes.jmx", "dev.lanes.spi")
                .should().dependOnClassesThat(resideInAPackage(INTERNAL)
                        .and(DescribedPredicate.not(entryPoints)))
                .check(classes);
    }

    /** The JDBC port owns its types: the writer and the readers implement it, not the reverse. */
    @Test
    void jdbcPortImportsNoLane() {
        noClasses().that().resideInAPackage("dev.lanes.internal.jdbc..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.lanes.internal.writer..",
                        "dev.lanes.internal.reader..", "dev.lanes.internal.engine..",
                        "dev.lanes.internal.cluster..")
                .check(classes);
    }

    /** The lanes serve a database; they do not know the database, its cluster or JDBC. */
    @Test
    void lanesKnowNothingAboveThem() {
        noClasses().that().resideInAnyPackage("dev.lanes.internal.writer..",
                        "dev.lanes.internal.reader..")
                .should().dependOnClassesThat().resideInAnyPackage(ABOVE_THE_LANES)
                .check(classes);
    }

    /** The statement text (lexer, shapes, policies, pragma table) depends on no other package. */
    @Test
    void statementTextDependsOnNothingElseInternal() {
        noClasses().that().resideInAPackage("dev.lanes.internal.sql.text..")
                .should().dependOnClassesThat(resideInAPackage(INTERNAL)
                        .and(resideOutsideOfPackages("dev.lanes.internal.sql.text..")))
                .check(classes);
    }

    /** The plain JDBC delegation the guard and the data source both extend uses neither. */
    @Test
    void jdbcDelegationIsBelowItsUsers() {
        noClasses().that().resideInAPackage("dev.lanes.internal.guard.delegating..")
                .should().dependOnClassesThat(resideInAnyPackage(FEATURES)
                        .and(resideOutsideOfPackages("dev.lanes.internal.guard.delegating..")))
                .check(classes);
    }

    /**
     * The foundation (how a statement runs, value conversions, the driver, utilities) is below
     * every feature package and uses none of them.
     */
    @Test
    void foundationUsesNoFeaturePackage() {
        noClasses().that().resideInAnyPackage("dev.lanes.internal.sql..",
                        "dev.lanes.internal.types..", "dev.lanes.internal.sqlite..",
                        "dev.lanes.internal.util..")
                .should().dependOnClassesThat().resideInAnyPackage(FEATURES)
                .check(classes);
    }

    /**
     * Every {@link Database} of the implementation is a backend of the one facade, {@link
     * LaneDatabase}: a backend supplies what differs through its hooks and writes no second copy
     * of the lane's calls.
     */
    @Test
    void everyDatabaseIsABackendOfTheOneFacade() {
        classes().that().resideInAPackage(INTERNAL).and().implement(Database.class)
                .should().beAssignableTo(LaneDatabase.class)
                .check(classes);
    }

    /**
     * A write request's command is immutable: every field of {@link WriteRequest} and of its
     * kinds is final, so that what changes as it waits and runs lives in its ticket and its
     * stages, whose documentation names each field's writer.
     */
    @Test
    void writeRequestCommandsHoldOnlyFinalFields() {
        fields().that().areDeclaredInClassesThat().areAssignableTo(WriteRequest.class)
                .should().beFinal()
                .check(classes);
    }
}
