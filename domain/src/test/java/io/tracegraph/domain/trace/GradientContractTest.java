package io.tracegraph.domain.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class GradientContractTest {

    private static GradientContract contract(ExpectedGradient... expected) {
        List<ExpectedGradient> manifest = List.of(expected);
        return new GradientContract(GradientContract.manifestSha256Of(manifest), manifest,
                List.of(new GradientFamily("f", FamilyExpectation.ACTIVE, 1)));
    }

    private static ExpectedGradient gradient(String root, String key) {
        return new ExpectedGradient(root, key, "f");
    }

    @Test
    void aKeyRepeatedUnderOneRootIsReportedEvenWithOtherRootsBetween() {
        assertThat(contract(gradient("vb", "a"), gradient("other", "a"), gradient("vb", "b"), gradient("vb", "a"))
                .problem()).contains("gradient manifest declares (\"vb\", \"a\") more than once");
        assertThat(contract(gradient("vb", "a"), gradient("vb", "a")).problem())
                .contains("gradient manifest declares (\"vb\", \"a\") more than once");
    }

    @Test
    void theSameKeyUnderTwoRootsIsTwoParameters() {
        assertThat(contract(gradient("vb", "a"), gradient("other", "a"), gradient("vb", "b"), gradient("other", "b"))
                .problem()).isEmpty();
    }

    @Test
    void theFirstRepeatedPairInManifestOrderIsTheOneNamed() {
        assertThat(contract(gradient("r", "x"), gradient("s", "y"), gradient("s", "y"), gradient("r", "x"))
                .problem()).contains("gradient manifest declares (\"s\", \"y\") more than once");
    }
}
