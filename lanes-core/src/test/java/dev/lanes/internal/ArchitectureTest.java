package dev.lanes.internal;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.Architectures;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering of the internal packages, as ARCHITECTURE.md draws it: each feature package may
 * use only the ones below it, and no two packages depend on each other in a cycle.
 */
class ArchitectureTest {
    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.lanes");
    }

    @Test
    void noCyclesBetweenPackages() {
        slices().matching("dev.lanes.(**)").should().beFreeOfCycles().check(classes);
    }

    @Test
    void eachLayerUsesOnlyTheLayersBelowIt() {
        ArchRule layers = Architectures.layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("api").definedBy("dev.lanes", "dev.lanes.jmx", "dev.lanes.spi")
                .layer("cluster").definedBy("dev.lanes.internal.cluster..")
                .layer("engine").definedBy("dev.lanes.internal.engine..")
                .layer("jdbc").definedBy("dev.lanes.internal.jdbc..")
                .layer("writer").definedBy("dev.lanes.internal.writer..")
                .layer("reader").definedBy("dev.lanes.internal.reader..")
                .layer("file").definedBy("dev.lanes.internal.file..")
                .layer("guard").definedBy("dev.lanes.internal.guard..")
                .layer("telemetry").definedBy("dev.lanes.internal.telemetry..")
                .layer("notify").definedBy("dev.lanes.internal.notify..")
                .layer("scheduler").definedBy("dev.lanes.internal.scheduler..")
                .layer("sql").definedBy("dev.lanes.internal.sql")
                .layer("text").definedBy("dev.lanes.internal.sql.text..")
                .layer("types").definedBy("dev.lanes.internal.types..")
                .layer("sqlite").definedBy("dev.lanes.internal.sqlite..")
                .layer("util").definedBy("dev.lanes.internal.util..")
                .whereLayer("cluster").mayOnlyBeAccessedByLayers("api")
                .whereLayer("engine").mayOnlyBeAccessedByLayers("api", "cluster")
                .whereLayer("jdbc").mayOnlyBeAccessedByLayers("engine", "cluster")
                .whereLayer("writer").mayOnlyBeAccessedByLayers("engine", "cluster", "jdbc")
                .whereLayer("reader").mayOnlyBeAccessedByLayers("engine", "cluster", "jdbc")
                .whereLayer("file").mayOnlyBeAccessedByLayers("api", "engine", "cluster", "writer",
                        "reader")
                .whereLayer("guard").mayOnlyBeAccessedByLayers("engine", "cluster", "jdbc",
                        "writer", "reader")
                .whereLayer("telemetry").mayOnlyBeAccessedByLayers("engine", "cluster", "writer",
                        "reader", "file", "notify")
                .whereLayer("notify").mayOnlyBeAccessedByLayers("engine", "cluster", "writer")
                .whereLayer("scheduler").mayOnlyBeAccessedByLayers("engine", "cluster", "writer",
                        "reader", "file")
                .whereLayer("sql").mayOnlyBeAccessedByLayers("api", "engine", "cluster", "jdbc",
                        "writer", "reader", "file", "guard", "telemetry")
                .whereLayer("text").mayOnlyBeAccessedByLayers("api", "engine", "cluster", "jdbc",
                        "writer", "reader", "guard", "sql", "sqlite")
                .whereLayer("types").mayOnlyBeAccessedByLayers("api", "sql", "jdbc")
                .whereLayer("sqlite").mayOnlyBeAccessedByLayers("engine", "cluster", "jdbc",
                        "writer", "reader", "file", "guard", "sql")
                .whereLayer("util").mayOnlyBeAccessedByLayers("api", "engine", "cluster", "jdbc",
                        "writer", "reader", "file", "guard", "telemetry", "notify", "scheduler",
                        "sql", "text", "types", "sqlite");
        layers.check(classes);
    }
}
