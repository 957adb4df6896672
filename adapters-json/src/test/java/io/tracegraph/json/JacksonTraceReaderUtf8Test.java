package io.tracegraph.json;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The UTF-8 check finds the first bad byte wherever it lies in the eight-byte words it skips over. */
class JacksonTraceReaderUtf8Test {
    @Test
    void namesTheColumnOfABadByteAtEveryOffset() {
        for (int from = 0; from < 8; from++) {
            for (int at = 0; at < 40; at++) {
                byte[] line = new byte[from + 40];
                Arrays.fill(line, (byte) 'a');
                line[from + at] = (byte) 0xFF;
                int start = from;
                assertThatThrownBy(() -> JacksonTraceReader.checkUtf8(line, start, line.length))
                        .as("from %d, at %d", from, at)
                        .hasMessage("invalid UTF-8: byte 0xFF (column " + (at + 1) + ")");
            }
        }
    }

    @Test
    void acceptsMultiByteSequencesAcrossWordsAndRejectsOnesCutByTheEnd() {
        byte[] text = "abcdefgé😀hijklmnopqrstuvwx€yz".getBytes(StandardCharsets.UTF_8);
        for (int from = 0; from < 8; from++) {
            byte[] line = new byte[from + text.length];
            System.arraycopy(text, 0, line, from, text.length);
            int start = from;
            assertThatCode(() -> JacksonTraceReader.checkUtf8(line, start, line.length)).doesNotThrowAnyException();
            // Cut inside the euro sign (three bytes, its first at column 31 of the text).
            assertThatThrownBy(() -> JacksonTraceReader.checkUtf8(line, start, start + 32))
                    .hasMessage("invalid UTF-8: byte 0xE2 (column 31)");
        }
    }
}
