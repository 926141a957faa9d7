package hostside;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/**
 * The package layers (docs/ARCHITECTURE.md): the shared vocabulary at the bottom, the drills
 * above it, the report above the drills, the command line on top. A drill that imports the
 * report or the CLI, or two packages that import each other, is how the same content came to be
 * written twice; these rules keep it from coming back.
 */
class LayersTest {
    static JavaClasses classes;

    /** The drills: each module's package, and the packages they are built of. */
    static final String[] DRILLS = {"hostside.machine..", "hostside.memory..", "hostside.vm..", "hostside.cpu..", "hostside.io..", "hostside.container..",
            "hostside.checklist..", "hostside.rack..", "hostside.gpu..", "hostside.harness..", "hostside.process..", "hostside.fs..",
            "hostside.libc..", "hostside.snapshot..", "hostside.doc..", "hostside.core..", "hostside.bundle.."};

    @BeforeAll
    static void load() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("hostside");
    }

    @Test
    void noCyclesBetweenTopLevelPackages() {
        slices().matching("hostside.(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void drillsNeverImportTheReportOrTheCommandLine() {
        noClasses().that().resideInAnyPackage(DRILLS).should().dependOnClassesThat().resideInAnyPackage("hostside.report..", "hostside.cli..")
                .check(classes);
    }

    @Test
    void onlyTheCommandLineKnowsPicocli() {
        noClasses().that().resideOutsideOfPackage("hostside.cli..").should().dependOnClassesThat().resideInAPackage("picocli..").check(classes);
    }

    @Test
    void theReportIsNotImportedBelowTheCommandLine() {
        // the learning mode sits beside the command line: it reads reports and draws them
        noClasses().that().resideOutsideOfPackages("hostside.cli..", "hostside.report..", "hostside.learn..").should().dependOnClassesThat()
                .resideInAPackage("hostside.report..").check(classes);
    }

    @Test
    void onlyTheCommandLineKnowsTheLearningMode() {
        noClasses().that().resideOutsideOfPackages("hostside.cli..", "hostside.learn..").should().dependOnClassesThat()
                .resideInAPackage("hostside.learn..").check(classes);
    }

    @Test
    void theVocabularyAndTheDocumentsDependOnNothingAboveThem() {
        noClasses().that().resideInAPackage("hostside.core..").should().dependOnClassesThat()
                .resideOutsideOfPackages("hostside.core..", "java..", "com.fasterxml.jackson..").check(classes);
        noClasses().that().resideInAPackage("hostside.doc..").should().dependOnClassesThat()
                .resideOutsideOfPackages("hostside.doc..", "hostside.core..", "java..").check(classes);
    }
}
