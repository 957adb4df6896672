package io.tracegraph.domain.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CodePointOrderTest {
    private static final String GRINNING = new String(Character.toChars(0x1F600));

    @Test
    void ordersAsciiLexicographicallyWithPrefixesFirst() {
        List<String> ids = new ArrayList<>(List.of("s2", "s10", "s1", "", "s", "a/op/0", "a", "a0", "B"));

        ids.sort(CodePointOrder.COMPARATOR);

        assertThat(ids).containsExactly("", "B", "a", "a/op/0", "a0", "s", "s1", "s10", "s2");
    }

    @Test
    void putsSupplementaryCharactersAfterTheTopOfTheBasicPlane() {
        assertThat(GRINNING.compareTo("\uFF21")).as("UTF-16 order").isNegative();
        assertThat(CodePointOrder.compare(GRINNING, "\uFF21")).isPositive();
        assertThat(CodePointOrder.compare("\uFF21", GRINNING)).isNegative();
        assertThat(CodePointOrder.compare("\uE000", "\uD800\uDC00")).isNegative();
        assertThat(CodePointOrder.compare("\uFFFF", "\uD800\uDC00")).isNegative();
        assertThat(CodePointOrder.compare("\uD7FF", "\uD800\uDC00")).isNegative();
    }

    @Test
    void ordersSupplementaryCharactersAmongThemselves() {
        assertThat(CodePointOrder.compare("\uD800\uDC00", "\uDBFF\uDFFF")).isNegative();
        assertThat(CodePointOrder.compare(GRINNING, new String(Character.toChars(0x1F601)))).isNegative();
        assertThat(CodePointOrder.compare("x" + GRINNING + "a", "x" + GRINNING + "b")).isNegative();
        assertThat(CodePointOrder.compare(GRINNING, GRINNING)).isZero();
    }

    @Test
    void agreesWithTheByteOrderOfUtf8OnRandomStrings() {
        int[] pool = {'a', 'b', '/', '0', 0x7F, 0xE9, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFF21, 0xFFFD, 0xFFFF, 0x10000,
                0x1F600, 0x10FFFF};
        Random random = new Random(20260804);
        for (int round = 0; round < 20_000; round++) {
            String left = randomString(random, pool);
            String right = randomString(random, pool);
            int expected = Integer.signum(Arrays.compareUnsigned(left.getBytes(StandardCharsets.UTF_8),
                    right.getBytes(StandardCharsets.UTF_8)));

            assertThat(Integer.signum(CodePointOrder.compare(left, right)))
                    .as("%s vs %s", escape(left), escape(right)).isEqualTo(expected);
        }
    }

    private static String randomString(Random random, int[] pool) {
        StringBuilder s = new StringBuilder();
        int length = random.nextInt(4);
        for (int i = 0; i < length; i++) {
            s.appendCodePoint(pool[random.nextInt(pool.length)]);
        }
        return s.toString();
    }

    private static String escape(String s) {
        StringBuilder out = new StringBuilder();
        s.codePoints().forEach(cp -> out.append(String.format("U+%04X ", cp)));
        return out.toString();
    }
}
