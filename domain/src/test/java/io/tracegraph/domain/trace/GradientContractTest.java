package io.tracegraph.domain.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
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

    @Test
    void aDigestMismatchIsReportedBeforeAnEntryProblem() {
        List<ExpectedGradient> manifest = List.of(gradient("vb", "a"), gradient("vb", " "), gradient("vb", "a"));
        GradientContract contract = new GradientContract("sha256:00", manifest,
                List.of(new GradientFamily("f", FamilyExpectation.ACTIVE, 1)));
        assertThat(contract.problem())
                .contains("gradient manifest SHA-256 does not match its ordered parameter manifest");
        assertThat(contract(gradient("vb", "a"), gradient("vb", " "), gradient("vb", "a")).problem())
                .contains("gradient manifest root, key, and family must not be empty");
    }

    @Test
    void theDigestIsTheSpecifiedEncodingAcrossBufferBoundariesAndNonAsciiText() throws Exception {
        List<ExpectedGradient> manifest = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            String key = "layers." + i + ".weight" + "x".repeat(i % 37) + (i % 97 == 0 ? "\u00e9\u4e2d" : "");
            manifest.add(new ExpectedGradient(i % 3 == 0 ? "vb" : "v\u00e4r", key, "family" + i / 100));
        }
        manifest.add(new ExpectedGradient("vb", "k".repeat(70_000), "long"));
        manifest.add(new ExpectedGradient("vb", "\u00fc".repeat(40_000), "long"));
        assertThat(GradientContract.manifestSha256Of(manifest)).isEqualTo(reference(manifest));
        List<ExpectedGradient> first = manifest.subList(0, 1);
        assertThat(GradientContract.manifestSha256Of(first)).isEqualTo(reference(first));
    }

    /** The encoding written out plainly: schema, NUL, then per field its UTF-8 length (u64 LE) and bytes. */
    private static String reference(List<ExpectedGradient> manifest) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(GradientContract.MANIFEST_SCHEMA.getBytes(StandardCharsets.UTF_8));
        out.write(0);
        for (ExpectedGradient parameter : manifest) {
            for (String field : List.of(parameter.root(), parameter.key(), parameter.family())) {
                byte[] bytes = field.getBytes(StandardCharsets.UTF_8);
                for (int i = 0; i < 8; i++) {
                    out.write((int) ((long) bytes.length >>> (8 * i)) & 0xFF);
                }
                out.write(bytes);
            }
        }
        return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(out.toByteArray()));
    }
}
