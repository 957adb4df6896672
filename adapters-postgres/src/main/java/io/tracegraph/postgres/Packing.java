package io.tracegraph.postgres;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Packed integer columns, the format of the store's packs (V5; {@code packed_values()} reads it in
 * SQL, docs/schema.md describes it): a header, then every value in the same small number of bytes
 * (the width chosen for the column: frame of reference), then the few values that do not fit
 * (exceptions). A column may be stored as deltas (each value minus the one before) or relative to a
 * reference column (each value minus the reference's), whichever takes fewer bytes.
 *
 * <pre>
 * byte 0      flags: 1 deltas, 2 relative, 0 plain
 * byte 1      width w (0..8)
 * bytes 2-5   n
 * bytes 6-13  base: w &lt; 8: stored value = base + w-byte unsigned integer; w = 8: the integer itself
 * bytes 14-17 e
 * n * w bytes, then e times (index: 4 bytes, stored value: 8 bytes), by ascending index
 * </pre>
 */
final class Packing {
    static final int DELTAS = 1;
    static final int RELATIVE = 2;
    static final int HEADER = 18;
    private static final int EXCEPTION = 12;
    /** Values a width is chosen from (evenly spread over the column); the exact cost decides between two. */
    private static final int SAMPLE = 1024;

    private Packing() {
    }

    /** {@code values} packed plain. */
    static byte[] pack(long[] values) {
        return pack(values, null, false);
    }

    /**
     * {@code values} packed plain, as deltas (when {@code deltas}) or relative to {@code reference}
     * (when given, of the same length), whichever is smallest; a form whose differences would
     * overflow is not a candidate.
     */
    static byte[] pack(long[] values, long[] reference, boolean deltas) {
        Choice best = choose(values, 0);
        if (deltas && values.length > 1) {
            long[] d = deltas(values);
            if (d != null) {
                Choice c = choose(d, DELTAS);
                if (c.size() < best.size()) {
                    best = c;
                }
            }
        }
        if (reference != null) {
            if (reference.length != values.length) {
                throw new IllegalArgumentException("a reference of " + reference.length + " values for " + values.length);
            }
            long[] r = differences(values, reference);
            if (r != null) {
                Choice c = choose(r, RELATIVE);
                if (c.size() < best.size()) {
                    best = c;
                }
            }
        }
        return best.encode();
    }

    /**
     * {@code values} packed plain or relative to {@code reference} (when given), whichever is
     * smaller, without exceptions or deltas: a column SQL reads in one pass with the others of its
     * pack ({@code packed_at()}, the path statistics).
     */
    static byte[] packFrame(long[] values, long[] reference) {
        Choice best = choose(values, 0, false);
        if (reference != null) {
            long[] r = differences(values, reference);
            if (r != null) {
                Choice c = choose(r, RELATIVE, false);
                if (c.size() < best.size()) {
                    best = c;
                }
            }
        }
        return best.encode();
    }

    /** The values of a packed column; {@code reference}: the reference column of a relative one. */
    static long[] unpack(byte[] packed, long[] reference) {
        return unpack(ByteBuffer.wrap(packed), reference);
    }

    /** As {@link #unpack(byte[], long[])}, from the buffer's position to its limit (consumed). */
    static long[] unpack(ByteBuffer packed, long[] reference) {
        ByteBuffer b = packed.slice();
        if (b.remaining() < HEADER) {
            throw new IllegalArgumentException("a packed column of " + b.remaining() + " bytes");
        }
        int flags = b.get(0) & 0xFF;
        int w = b.get(1) & 0xFF;
        int n = b.getInt(2);
        long base = b.getLong(6);
        int e = b.getInt(14);
        if (flags > (DELTAS | RELATIVE) || w > 8 || n < 0 || e < 0 || e > n
                || b.remaining() != HEADER + (long) n * w + (long) EXCEPTION * e) {
            throw new IllegalArgumentException("not a packed column (flags " + flags + ", width " + w + ", " + n
                    + " values, " + e + " exceptions, " + b.remaining() + " bytes)");
        }
        long[] v = new long[n];
        int at = HEADER;
        if (w == 0) {
            Arrays.fill(v, base);
        } else if (w == 8) {
            b.position(at);
            b.asLongBuffer().get(v);
        } else {
            byte[] bytes = new byte[n * w];
            b.position(at);
            b.get(bytes);
            for (int i = 0, k = 0; i < n; i++) {
                long u = 0;
                for (int j = 0; j < w; j++) {
                    u = (u << 8) | (bytes[k++] & 0xFF);
                }
                v[i] = base + u;
            }
        }
        at += n * w;
        for (int j = 0; j < e; j++, at += EXCEPTION) {
            int index = b.getInt(at);
            if (index < 0 || index >= n) {
                throw new IllegalArgumentException("a packed column's exception at " + index + " of " + n);
            }
            v[index] = b.getLong(at + 4);
        }
        packed.position(packed.limit());
        if ((flags & DELTAS) != 0) {
            for (int i = 1; i < n; i++) {
                v[i] += v[i - 1];
            }
        }
        if ((flags & RELATIVE) != 0) {
            if (reference == null || reference.length != n) {
                throw new IllegalArgumentException("a relative packed column of " + n + " values needs a reference of "
                        + "as many");
            }
            for (int i = 0; i < n; i++) {
                v[i] += reference[i];
            }
        }
        return v;
    }

    /** Each value minus the one before (the first minus 0); null when a difference overflows. */
    private static long[] deltas(long[] v) {
        long[] d = new long[v.length];
        long previous = 0;
        for (int i = 0; i < v.length; i++) {
            long x = v[i];
            long diff = x - previous;
            if (((x ^ previous) & (x ^ diff)) < 0) {
                return null;
            }
            d[i] = diff;
            previous = x;
        }
        return d;
    }

    /** Each value minus its reference; null when a difference overflows. */
    private static long[] differences(long[] v, long[] reference) {
        long[] d = new long[v.length];
        for (int i = 0; i < v.length; i++) {
            long x = v[i];
            long y = reference[i];
            long diff = x - y;
            if (((x ^ y) & (x ^ diff)) < 0) {
                return null;
            }
            d[i] = diff;
        }
        return d;
    }

    /** How to pack {@code stored} (the values as stored: plain, deltas or differences). */
    private record Choice(long[] stored, int flags, int width, long base, int exceptions) {
        long size() {
            return HEADER + (long) stored.length * width + (long) EXCEPTION * exceptions;
        }

        byte[] encode() {
            int n = stored.length;
            ByteBuffer out = ByteBuffer.allocate(Math.toIntExact(size()));
            out.put((byte) flags).put((byte) width).putInt(n).putLong(base).putInt(exceptions);
            byte[] data = new byte[n * width];
            int[] at = new int[exceptions];
            int e = 0;
            long limit = width == 8 ? 0 : 1L << (8 * width);
            for (int i = 0, k = 0; i < n; i++, k += width) {
                long u = width == 8 ? stored[i] : stored[i] - base;
                if (width < 8 && (stored[i] < base || Long.compareUnsigned(u, limit) >= 0)) {
                    at[e++] = i;
                    continue;
                }
                for (int j = width - 1; j >= 0; j--) {
                    data[k + j] = (byte) u;
                    u >>>= 8;
                }
            }
            out.put(data);
            for (int j = 0; j < e; j++) {
                out.putInt(at[j]).putLong(stored[at[j]]);
            }
            return out.array();
        }
    }

    /**
     * The width and base that pack {@code stored} in the fewest bytes: from a sample, the window of
     * values each width covers best (patched frame of reference), against the exact plain frame of
     * the smallest and largest value; the smaller of the two, counted exactly, wins.
     */
    private static Choice choose(long[] stored, int flags) {
        return choose(stored, flags, true);
    }

    /** As {@link #choose(long[], int)}; unless {@code withExceptions}, the plain frame (no exceptions). */
    private static Choice choose(long[] stored, int flags, boolean withExceptions) {
        int n = stored.length;
        if (n == 0) {
            return new Choice(stored, flags, 0, 0, 0);
        }
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (long x : stored) {
            min = Math.min(min, x);
            max = Math.max(max, x);
        }
        int frameWidth = width(min, max);
        Choice best = new Choice(stored, flags, frameWidth, frameWidth == 8 ? 0 : min, 0);
        if (frameWidth == 0 || !withExceptions) {
            return best;
        }
        long[] sample = sample(stored);
        Arrays.sort(sample);
        long bestEstimate = best.size();
        int chosenWidth = -1;
        long chosenBase = 0;
        for (int w = 0; w < frameWidth; w++) {
            long span = w == 0 ? 1 : 1L << (8 * w);
            int covered = 0;
            long base = sample[0];
            for (int i = 0, j = 0; i < sample.length; i++) {
                j = Math.max(j, i);
                while (j < sample.length && fits(sample[j], sample[i], span)) {
                    j++;
                }
                if (j - i > covered) {
                    covered = j - i;
                    base = sample[i];
                }
            }
            long exceptions = (long) Math.ceil((double) (sample.length - covered) * n / sample.length);
            long estimate = HEADER + (long) n * w + EXCEPTION * exceptions;
            if (estimate < bestEstimate) {
                bestEstimate = estimate;
                chosenWidth = w;
                chosenBase = base;
            }
        }
        if (chosenWidth < 0) {
            return best;
        }
        long span = chosenWidth == 0 ? 1 : 1L << (8 * chosenWidth);
        int exceptions = 0;
        for (long x : stored) {
            if (!fits(x, chosenBase, span)) {
                exceptions++;
            }
        }
        Choice patched = new Choice(stored, flags, chosenWidth, chosenBase, exceptions);
        return patched.size() < best.size() ? patched : best;
    }

    /** Whether {@code x} is in {@code [base, base + span)}. */
    private static boolean fits(long x, long base, long span) {
        return x >= base && Long.compareUnsigned(x - base, span) < 0;
    }

    /** Bytes for the values from {@code min} to {@code max} above {@code min}; 8 for the full range. */
    private static int width(long min, long max) {
        long range = max - min;
        if (range == 0) {
            return 0;
        }
        if (max > min && range < 0) {
            return 8;
        }
        int bits = 64 - Long.numberOfLeadingZeros(range);
        int w = (bits + 7) / 8;
        return w >= 8 ? 8 : w;
    }

    private static long[] sample(long[] stored) {
        int n = stored.length;
        if (n <= SAMPLE) {
            return stored.clone();
        }
        long[] sample = new long[SAMPLE];
        for (int i = 0; i < SAMPLE; i++) {
            sample[i] = stored[(int) ((long) i * n / SAMPLE)];
        }
        return sample;
    }
}
