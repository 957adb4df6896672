package io.tracegraph.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Lines without a backslash or a 0xED byte skip the per-string surrogate check; every other line
 * keeps it, also when it follows a clean line on the same decoder.
 */
class RecordDecoderSurrogatesTest {
    private final RecordDecoder decoder = new RecordDecoder().at(6);

    private Object decode(String line) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        return JacksonTraceReader.decodeLine(decoder, bytes, 0, bytes.length);
    }

    @Test
    void anUnpairedSurrogateEscapeIsRefusedBeforeAndAfterCleanLines() {
        decode("{\"kind\":\"span_end\",\"id\":\"s1\",\"duration_ns\":5}");
        assertThatThrownBy(() -> decode("{\"kind\":\"span_end\",\"id\":\"s\\ud800\",\"duration_ns\":5}"))
                .isInstanceOf(RecordDecoder.DecodeException.class)
                .hasMessageContaining("unpaired surrogate escape \\ud800");
        decode("{\"kind\":\"span_end\",\"id\":\"s1\",\"duration_ns\":5}");
        assertThatThrownBy(() -> decode("{\"kind\":\"span_end\",\"duration_ns\":5,\"id\":\"\\udc00s\"}"))
                .isInstanceOf(RecordDecoder.DecodeException.class)
                .hasMessageContaining("unpaired surrogate escape \\udc00");
    }

    @Test
    void pairedEscapesAndRawFourByteCharactersAreRead() {
        Object escaped = decode("{\"kind\":\"span_end\",\"id\":\"s\\ud83d\\ude00\",\"duration_ns\":5}");
        Object raw = decode("{\"kind\":\"span_end\",\"id\":\"s\uD83D\uDE00\",\"duration_ns\":5}");
        assertThat(escaped).isEqualTo(raw);
        assertThat(decode("{\"kind\":\"span_end\",\"id\":\"s\uD7FF\",\"duration_ns\":5}")).isNotNull();
    }
}
