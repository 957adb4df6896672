package io.tracegraph.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tracegraph.domain.trace.GradientContract;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A big gradient manifest read from the meta line's bytes gives the record Jackson gives; a
 * manifest spelled otherwise, an array of that spelling elsewhere in the line, and an error after
 * the manifest all leave the line to Jackson as written.
 */
class ManifestSpliceTest {
    private static final String MEMBER = "\"expected\":[{\"root\":\"";
    /** The meta line of a generated trace/10 training trace: a manifest of some 2,300 entries. */
    private static String meta;

    @BeforeAll
    static void generate() throws IOException {
        StringWriter out = new StringWriter();
        SyntheticTrace.training().ops(20_000).seed(5).schema(10).writeTo(out);
        meta = out.toString().substring(0, out.toString().indexOf('\n'));
        assertThat(meta.length()).isGreaterThan(ManifestSplice.MIN_LINE_BYTES);
        assertThat(meta).contains(MEMBER);
    }

    private static byte[] bytes(String line) {
        return line.getBytes(StandardCharsets.UTF_8);
    }

    private static Object decode(String line) {
        byte[] b = bytes(line);
        return JacksonTraceReader.decodeLine(new RecordDecoder().at(10), b, 0, b.length);
    }

    /** The same line with a space before the manifest's array: read by Jackson alone, same values. */
    private static String unspliced(String line) {
        return line.replace("\"expected\":[", "\"expected\": [");
    }

    private static GradientContract manifest(Object meta) {
        return ((RecordDecoder.Meta) meta).run().captureContract().gradientContract();
    }

    @Test
    void theSplicedManifestIsTheOneJacksonReads() {
        byte[] line = bytes(meta);
        ManifestSplice splice = ManifestSplice.of(line, 0, line.length);
        assertThat(splice).isNotNull();
        assertThat(new String(splice.line(), StandardCharsets.UTF_8)).contains("\"expected\":[],\"families\":[]}");
        assertThat(splice.familiesOffset()).isEqualTo(splice.arrayOffset() + "[],\"families\":".length());

        RecordDecoder decoder = new RecordDecoder().at(10);
        decoder.splice(splice);
        Object spliced = JacksonTraceReader.decodeLine(decoder, splice.line(), 0, splice.line().length);
        assertThat(splice.taken()).isTrue();

        assertThat(ManifestSplice.of(bytes(unspliced(meta)), 0, unspliced(meta).length())).isNull();
        Object jackson = decode(unspliced(meta));
        assertThat(manifest(jackson).expected()).hasSizeGreaterThan(2_000);
        assertThat(spliced).isEqualTo(jackson);
        assertThat(decode(meta)).isEqualTo(jackson);
    }

    @Test
    void entriesSpelledOtherwiseAreLeftToJackson() {
        String first = meta.substring(meta.indexOf(MEMBER) + MEMBER.length() - "{\"root\":\"".length());
        String entry = first.substring(0, first.indexOf('}') + 1);
        for (String other : new String[] {
            entry.replace("\",\"key\"", "\", \"key\""),                  // a space
            entry.replace("{\"root\":\"", "{\"root\":\"\\u0076"),        // an escape
            entry.replace("{\"root\":\"", "{\"root\":\"\u00e9"),         // not ASCII
            entry.replace("\"family\":\"", "\"family\":\"x\",\"extra\":\""), // another member
        }) {
            String line = meta.replace(entry, other);
            assertThat(line).isNotEqualTo(meta);
            assertThat(ManifestSplice.of(bytes(line), 0, bytes(line).length)).as(other).isNull();
        }
        String escaped = meta.replace(entry, entry.replace("{\"root\":\"", "{\"root\":\"\\u0076"));
        assertThat(manifest(decode(escaped)).expected().get(0).root()).startsWith("v");
    }

    @Test
    void familiesSpelledOtherwiseStayInTheLineForJackson() {
        String line = meta.replace("\"min_present\":1}", "\"min_present\": 1}");
        byte[] b = bytes(line);
        ManifestSplice splice = ManifestSplice.of(b, 0, b.length);
        assertThat(splice).isNotNull();
        assertThat(splice.familiesOffset()).isEqualTo(-1);
        Object read = decode(line);
        assertThat(read).isEqualTo(decode(unspliced(meta)));
        assertThat(manifest(read).families()).hasSizeGreaterThan(10);
        for (String minimum : new String[] {"01", "-1", "1.0", "1234567890123456789"}) {
            String other = meta.replaceFirst("\"min_present\":1}", "\"min_present\":" + minimum + "}");
            assertThat(ManifestSplice.of(bytes(other), 0, bytes(other).length).familiesOffset()).as(minimum)
                    .isEqualTo(-1);
        }
    }

    @Test
    void anArrayOfThatSpellingElsewhereIsNotTakenForTheManifest() {
        String decoy = "\"decoy\":{\"expected\":[{\"root\":\"a\",\"key\":\"b\",\"family\":\"c\"}]},";
        String line = meta.replace("\"capture_contract\":", decoy + "\"capture_contract\":");
        assertThat(line.indexOf(MEMBER)).isLessThan(line.indexOf("\"capture_contract\":"));
        Object read = decode(line);
        assertThat(read).isEqualTo(decode(unspliced(line)));
        assertThat(manifest(read).expected()).hasSizeGreaterThan(2_000);
    }

    @Test
    void anErrorAfterTheManifestNamesItsColumnInTheLineAsWritten() {
        String line = meta.replace("\"families\":[", "\"families\":[,");
        int column = line.indexOf("\"families\":[,") + "\"families\":[".length() + 1;
        assertThat(ManifestSplice.of(bytes(line), 0, bytes(line).length)).isNotNull();
        assertThatThrownBy(() -> decode(line)).isInstanceOf(RecordDecoder.DecodeException.class)
                .hasMessageStartingWith("invalid JSON: ")
                .hasMessageEndingWith("(column " + column + ")");
    }
}
