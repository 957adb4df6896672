package io.tracegraph.json.pytorch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A PyTorch trace is recognised by a top-level {@code traceEvents} array however its name is
 * spelled or encoded; JSON that names no {@code traceEvents} anywhere is refused without being
 * tokenised, and a nested one is no PyTorch trace.
 */
class PyTorchTraceFormatTest {
    private final PyTorchTraceFormat format = new PyTorchTraceFormat();

    private boolean recognises(String json) {
        return format.recognises(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void recognisesATopLevelTraceEventsArrayAsWrittenEscapedOrInUtf16() {
        assertThat(recognises("{\"schemaVersion\":1,\"traceEvents\":[{\"ph\":\"X\"}]}")).isTrue();
        assertThat(recognises("{\"schemaVersion\":1,\"trace\\u0045vents\":[{\"ph\":\"X\"}]}")).isTrue();
        assertThat(format.recognises("{\"traceEvents\":[]}".getBytes(StandardCharsets.UTF_16LE))).isTrue();
    }

    @Test
    void refusesJsonWithoutATopLevelTraceEventsArray() {
        String manifest = "{\"root\":\"vb\",\"key\":\"k\",\"family\":\"f\"},".repeat(2_000);
        assertThat(recognises("{\"kind\":\"meta\",\"capture_contract\":{\"expected\":[" + manifest)).isFalse();
        assertThat(recognises("{\"other\":{\"traceEvents\":[]}}")).isFalse();
        assertThat(recognises("{\"traceEvents\":{}}")).isFalse();
        assertThat(recognises("{\"traceEv")).isFalse();
    }
}
