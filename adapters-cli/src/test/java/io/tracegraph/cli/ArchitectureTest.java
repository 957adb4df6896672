package io.tracegraph.cli;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine.Command;

/**
 * The module arrows of the README, checked on the compiled classes of every module. Each rule names
 * the packages it guards; it holds only when each of them has classes among those imported, so no
 * rule passes because what it guards is missing ({@link #everyRuleFailsWithoutWhatItGuards}).
 */
class ArchitectureTest {
    private static final String DOMAIN = "io.tracegraph.domain..";
    private static final String APPLICATION = "io.tracegraph.application..";
    private static final String JSON = "io.tracegraph.json..";
    private static final String FILES = "io.tracegraph.files..";
    private static final String POSTGRES = "io.tracegraph.postgres..";
    private static final String CLI = "io.tracegraph.cli..";
    /** The commands: picocli commands of the CLI's own package (render and report are apart). */
    private static final String COMMANDS = "io.tracegraph.cli";
    private static final String RENDER = "io.tracegraph.cli.render..";

    /** A rule and the packages that must have classes for it to mean anything. */
    record Guarded(String name, ArchRule rule, List<String> guards) {
        Guarded(String name, ArchRule rule, String... guards) {
            this(name, rule, Arrays.asList(guards));
        }

        /** Checks that every guarded package has classes, then the rule. */
        void check(JavaClasses imported) {
            for (String guarded : guards) {
                assertThat(imported.stream().anyMatch(resideInAnyPackage(guarded)::test))
                        .as("%s: no classes in %s were imported", name, guarded).isTrue();
            }
            rule.check(imported);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages("io.tracegraph");
    }

    static Stream<Guarded> rules() {
        return Stream.of(
                new Guarded("domain depends on the JDK only", classes().that().resideInAPackage(DOMAIN)
                        .should().onlyDependOnClassesThat().resideInAnyPackage(DOMAIN, "java..")
                        .allowEmptyShould(false), DOMAIN),
                new Guarded("domain does no I/O", noClasses().that().resideInAPackage(DOMAIN)
                        .should().dependOnClassesThat().resideInAnyPackage("java.nio.file..", "java.net..", "java.sql..")
                        .orShould().dependOnClassesThat().haveFullyQualifiedName("java.io.File")
                        .allowEmptyShould(false), DOMAIN),
                new Guarded("application depends only on the domain", classes().that().resideInAPackage(APPLICATION)
                        .should().onlyDependOnClassesThat().resideInAnyPackage(APPLICATION, DOMAIN, "java..")
                        .allowEmptyShould(false), APPLICATION, DOMAIN),
                new Guarded("adapters-json sees no other adapter", noClasses().that().resideInAPackage(JSON)
                        .should().dependOnClassesThat().resideInAnyPackage(POSTGRES, FILES, CLI)
                        .allowEmptyShould(false), JSON, POSTGRES, FILES, CLI),
                new Guarded("adapters-postgres sees no other adapter", noClasses().that().resideInAPackage(POSTGRES)
                        .should().dependOnClassesThat().resideInAnyPackage(JSON, FILES, CLI)
                        .allowEmptyShould(false), POSTGRES, JSON, FILES, CLI),
                new Guarded("adapters-files sees no other adapter", noClasses().that().resideInAPackage(FILES)
                        .should().dependOnClassesThat().resideInAnyPackage(JSON, POSTGRES, CLI)
                        .allowEmptyShould(false), FILES, JSON, POSTGRES, CLI),
                new Guarded("only input discovery reads archives", noClasses().that().resideOutsideOfPackage(FILES)
                        .should().dependOnClassesThat().resideInAPackage("org.apache.commons.compress..")
                        .allowEmptyShould(false), FILES, CLI),
                new Guarded("only the CLI sees everyone", noClasses().that().resideOutsideOfPackage(CLI)
                        .should().dependOnClassesThat().resideInAPackage(CLI)
                        .allowEmptyShould(false), CLI, DOMAIN, APPLICATION, JSON, FILES, POSTGRES),
                new Guarded("commands use no comparison or port of the domain", noClasses()
                        .that().resideInAPackage(COMMANDS).and().areAnnotatedWith(Command.class)
                        .should().dependOnClassesThat().resideInAnyPackage("io.tracegraph.domain.compare..",
                                "io.tracegraph.domain.port..")
                        .allowEmptyShould(false), COMMANDS, "io.tracegraph.domain.compare..", "io.tracegraph.domain.port.."),
                new Guarded("commands call use cases of the application", classes()
                        .that().resideInAPackage(COMMANDS).and().areAnnotatedWith(Command.class)
                        .and().doNotHaveSimpleName("TracegraphCommand").and().doNotHaveSimpleName("DbCommand")
                        .should().dependOnClassesThat().resideInAPackage(APPLICATION)
                        .allowEmptyShould(false), COMMANDS, APPLICATION),
                new Guarded("rendering does not reach back into the commands", noClasses().that().resideInAPackage(RENDER)
                        .should().dependOnClassesThat().resideInAPackage(COMMANDS)
                        .allowEmptyShould(false), RENDER, COMMANDS));
    }

    @Test
    void everyModuleIsImported() {
        for (String pkg : new String[] {"io.tracegraph.domain", "io.tracegraph.application", "io.tracegraph.json",
            "io.tracegraph.files", "io.tracegraph.postgres", "io.tracegraph.cli", "io.tracegraph.cli.render"}) {
            assertThat(classes.stream().anyMatch(c -> c.getPackageName().startsWith(pkg))).as(pkg).isTrue();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rules")
    void everyRuleHolds(Guarded rule) {
        rule.check(classes);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rules")
    void everyRuleFailsWithoutWhatItGuards(Guarded rule) {
        for (String guarded : rule.guards()) {
            JavaClasses without = classes.that(not(resideInAnyPackage(guarded)));

            assertThatThrownBy(() -> rule.check(without)).as("%s without %s", rule, guarded)
                    .isInstanceOf(AssertionError.class);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rules")
    void everyRuleFailsOnAnEmptyImport(Guarded rule) {
        JavaClasses none = new ClassFileImporter().importPackages("io.tracegraph.nothing.here");
        assertThat(none).isEmpty();

        assertThatThrownBy(() -> rule.rule().check(none)).as(rule.name()).isInstanceOf(AssertionError.class);
    }
}
