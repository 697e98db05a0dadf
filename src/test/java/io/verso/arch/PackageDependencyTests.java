package io.verso.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The stages' imports point one way: api → surface → engine → plan → compile → analyze → sql / catalog →
 * error; the planner is pure (no Spring, no JDBC); derived-table upkeep writes no SQL of its own. A cycle, or a lower stage reaching up, fails here with the offending classes named.
 */
class PackageDependencyTests {

    private static JavaClasses classes;

    @BeforeAll
    static void load() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.verso");
    }

    @Test
    void noCyclesBetweenPackages() {
        slices().matching("io.verso.(**)").should().beFreeOfCycles().check(classes);
    }

    @Test
    void errorsDependOnNoStage() {
        noClasses().that().resideInAPackage("io.verso.error..")
                .should().dependOnClassesThat().resideInAnyPackage("io.verso.sql..", "io.verso.catalog..",
                        "io.verso.analyze..", "io.verso.compile..", "io.verso.engine..", "io.verso.api..",
                        "io.verso.surface..")
                .check(classes);
    }

    @Test
    void theCatalogKnowsNoSyntax() {
        noClasses().that().resideInAPackage("io.verso.catalog..")
                .should().dependOnClassesThat().resideInAnyPackage("io.verso.sql..", "io.verso.analyze..",
                        "io.verso.compile..", "io.verso.engine..", "io.verso.api..", "io.verso.surface..")
                .check(classes);
    }

    @Test
    void analysisNeitherCompilesNorExecutes() {
        noClasses().that().resideInAPackage("io.verso.analyze..")
                .should().dependOnClassesThat().resideInAnyPackage("io.verso.compile..", "io.verso.engine..",
                        "io.verso.api..", "io.verso.surface..")
                .check(classes);
    }

    @Test
    void compilationIsPureFunctionsOverResolvedStatements() {
        noClasses().that().resideInAPackage("io.verso.compile..")
                .should().dependOnClassesThat().resideInAnyPackage("io.verso.engine..", "io.verso.api..",
                        "io.verso.surface..", "org.springframework..", "java.sql..")
                .check(classes);
    }

    @Test
    void derivedTablesAreKeptBySqlTheCompilerWrites() {
        noClasses().that().resideInAPackage("io.verso.derive..")
                .should().dependOnClassesThat().haveFullyQualifiedName("io.verso.compile.SqlBuilder")
                .because("derive/ decides when upkeep runs; compile/DerivedCompiler writes its SQL")
                .check(classes);
    }

    @Test
    void thePlannerIsPure() {
        noClasses().that().resideInAPackage("io.verso.plan..")
                .should().dependOnClassesThat().resideInAnyPackage("io.verso.engine..", "io.verso.api..",
                        "io.verso.surface..", "io.verso.derive..", "org.springframework..", "java.sql..",
                        "javax.sql..")
                .check(classes);
    }

    @Test
    void theEngineServesTheSurfacesNotTheOtherWayRound() {
        noClasses().that().resideInAnyPackage("io.verso.engine..", "io.verso.plan..", "io.verso.compile..", "io.verso.analyze..",
                        "io.verso.sql..", "io.verso.catalog..")
                .should().dependOnClassesThat().resideInAnyPackage("io.verso.api..", "io.verso.surface..",
                        "io.verso.pgwire..")
                .check(classes);
    }
}
