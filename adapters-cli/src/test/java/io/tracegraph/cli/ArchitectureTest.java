package io.tracegraph.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The module arrows of the README, checked on the compiled classes of every module. */
class ArchitectureTest {
    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages("io.tracegraph");
    }

    @Test
    void everyModuleIsImported() {
        for (String pkg : new String[] {"io.tracegraph.domain", "io.tracegraph.application", "io.tracegraph.json",
            "io.tracegraph.files", "io.tracegraph.postgres", "io.tracegraph.cli"}) {
            org.assertj.core.api.Assertions.assertThat(classes.stream()
                    .anyMatch(c -> c.getPackageName().startsWith(pkg))).as(pkg).isTrue();
        }
    }

    @Test
    void domainDependsOnTheJdkOnly() {
        classes().that().resideInAPackage("io.tracegraph.domain..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("io.tracegraph.domain..", "java..")
                .check(classes);
    }

    @Test
    void domainDoesNoIo() {
        noClasses().that().resideInAPackage("io.tracegraph.domain..")
                .should().dependOnClassesThat().resideInAnyPackage("java.nio.file..", "java.net..", "java.sql..")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.io.File")
                .check(classes);
    }

    @Test
    void applicationDependsOnlyOnTheDomain() {
        classes().that().resideInAPackage("io.tracegraph.application..")
                .should().onlyDependOnClassesThat()
                .resideInAnyPackage("io.tracegraph.application..", "io.tracegraph.domain..", "java..")
                .check(classes);
    }

    @Test
    void adaptersDoNotDependOnEachOther() {
        noClasses().that().resideInAPackage("io.tracegraph.json..")
                .should().dependOnClassesThat()
                .resideInAnyPackage("io.tracegraph.postgres..", "io.tracegraph.files..", "io.tracegraph.cli..")
                .check(classes);
        noClasses().that().resideInAPackage("io.tracegraph.postgres..")
                .should().dependOnClassesThat()
                .resideInAnyPackage("io.tracegraph.json..", "io.tracegraph.files..", "io.tracegraph.cli..")
                .allowEmptyShould(true)
                .check(classes);
        noClasses().that().resideInAPackage("io.tracegraph.files..")
                .should().dependOnClassesThat()
                .resideInAnyPackage("io.tracegraph.json..", "io.tracegraph.postgres..", "io.tracegraph.cli..")
                .check(classes);
    }

    @Test
    void onlyInputDiscoveryReadsArchives() {
        noClasses().that().resideOutsideOfPackage("io.tracegraph.files..")
                .should().dependOnClassesThat().resideInAPackage("org.apache.commons.compress..")
                .check(classes);
    }

    @Test
    void onlyTheCliSeesEveryone() {
        noClasses().that().resideOutsideOfPackage("io.tracegraph.cli..")
                .should().dependOnClassesThat().resideInAPackage("io.tracegraph.cli..")
                .check(classes);
    }
}
