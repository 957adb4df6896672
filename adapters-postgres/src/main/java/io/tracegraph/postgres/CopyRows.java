package io.tracegraph.postgres;

import io.tracegraph.domain.trace.Shape;
import java.sql.SQLException;
import org.postgresql.copy.CopyIn;
import org.postgresql.copy.CopyManager;

/**
 * Streams rows into one {@code COPY ... FROM STDIN (FORMAT binary)} through a reusable buffer. The
 * binary format spares the server from parsing numbers and arrays, which is most of its work on a
 * big import. Each value must match its column's type: {@link #int4} for {@code integer},
 * {@link #int8} for {@code bigint}, {@link #text}, {@link #bool}, {@link #float8},
 * {@link #int8Array} for {@code bigint[]}, {@link #textArray} for {@code text[]}, {@link #byteaArray} for
 * {@code bytea[]}, {@link #int8Packed}
 * for {@code bytea} of packed integers and {@link #bytea}. PostgreSQL text cannot hold U+0000, so it is stored as U+FFFD; a
 * lone surrogate likewise.
 */
final class CopyRows implements AutoCloseable {
    private static final int FLUSH_AT = 1 << 20;
    private static final byte[] HEADER = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xFF, '\r', '\n', 0,
        0, 0, 0, 0, 0, 0, 0, 0};
    private static final int INT8_OID = 20;
    private static final int TEXT_OID = 25;
    private static final int BYTEA_OID = 17;

    private final CopyIn copy;
    private final short columns;
    private byte[] buf = new byte[FLUSH_AT + (64 << 10)];
    private int len;
    private int column;
    private long rows;

    private CopyRows(CopyIn copy, int columns) {
        this.copy = copy;
        this.columns = (short) columns;
        System.arraycopy(HEADER, 0, buf, 0, HEADER.length);
        len = HEADER.length;
    }

    static CopyRows open(CopyManager copyApi, String table, String columns) throws SQLException {
        int count = columns.split(",").length;
        return new CopyRows(copyApi.copyIn("COPY " + table + " (" + columns + ") FROM STDIN (FORMAT binary)"),
                count);
    }

    CopyRows text(String value) {
        if (value == null) {
            return nul();
        }
        ensure(4 + value.length() * 3);
        int lengthAt = field(0);
        int start = len;
        utf8(value);
        putInt(lengthAt, len - start);
        return this;
    }

    /** A {@code text[]} of one dimension without NULLs (the empty array when empty). */
    CopyRows textArray(String[] values) {
        int lengthAt = arrayHeader(values.length, TEXT_OID);
        for (String value : values) {
            ensure(4 + value.length() * 3);
            int elementAt = len;
            len += 4;
            utf8(value);
            putInt(elementAt, len - elementAt - 4);
        }
        putInt(lengthAt, len - lengthAt - 4);
        return this;
    }

    /** A {@code bigint[]} of one dimension without NULLs. */
    CopyRows int8Array(long[] values) {
        int lengthAt = arrayHeader(values.length, INT8_OID);
        ensure(values.length * 12);
        for (long value : values) {
            putInt(len, 8);
            len += 4;
            putLong(value);
        }
        putInt(lengthAt, len - lengthAt - 4);
        return this;
    }

    /** A {@code bytea[]} of one dimension without NULLs (the empty array when empty). */
    CopyRows byteaArray(java.util.List<byte[]> values) {
        int lengthAt = arrayHeader(values.size(), BYTEA_OID);
        for (byte[] value : values) {
            ensure(4 + value.length);
            putInt(len, value.length);
            len += 4;
            System.arraycopy(value, 0, buf, len, value.length);
            len += value.length;
        }
        putInt(lengthAt, len - lengthAt - 4);
        return this;
    }

    /** Starts an array field (its length patched by the caller); returns where its length goes. */
    private int arrayHeader(int n, int elementOid) {
        ensure(4 + 20);
        int lengthAt = field(0);
        putInt(len, n == 0 ? 0 : 1);
        putInt(len + 4, 0);
        putInt(len + 8, elementOid);
        len += 12;
        if (n > 0) {
            putInt(len, n);
            putInt(len + 4, 1);
            len += 8;
        }
        return lengthAt;
    }

    /** Appends {@code value} as UTF-8 (room for 3 bytes a char ensured by the caller). */
    private void utf8(String value) {
        int n = value.length();
        for (int i = 0; i < n; i++) {
            char c = value.charAt(i);
            if (c < 0x80) {
                if (c == 0) {
                    replacement();
                } else {
                    buf[len++] = (byte) c;
                }
            } else if (c < 0x800) {
                buf[len++] = (byte) (0xC0 | (c >> 6));
                buf[len++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(value.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, value.charAt(++i));
                buf[len++] = (byte) (0xF0 | (cp >> 18));
                buf[len++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                buf[len++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                buf[len++] = (byte) (0x80 | (cp & 0x3F));
            } else if (Character.isSurrogate(c)) {
                replacement();
            } else {
                buf[len++] = (byte) (0xE0 | (c >> 12));
                buf[len++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                buf[len++] = (byte) (0x80 | (c & 0x3F));
            }
        }
    }

    /** A {@code bigint}. */
    CopyRows int8(long value) {
        ensure(12);
        field(8);
        putLong(value);
        return this;
    }

    /** A nullable {@code bigint}. */
    CopyRows int8(Long value) {
        return value == null ? nul() : int8(value.longValue());
    }

    /** An {@code integer}. */
    CopyRows int4(int value) {
        ensure(8);
        field(4);
        putInt(len, value);
        len += 4;
        return this;
    }

    /** A nullable {@code double precision}. */
    CopyRows float8(Double value) {
        if (value == null) {
            return nul();
        }
        ensure(12);
        field(8);
        putLong(Double.doubleToLongBits(value));
        return this;
    }

    CopyRows bool(boolean value) {
        ensure(5);
        field(1);
        buf[len++] = (byte) (value ? 1 : 0);
        return this;
    }

    /** A {@code bigint[]}; {@code null} stays NULL, a scalar shape is the empty array. */
    CopyRows int8Array(Shape shape) {
        if (shape == null) {
            return nul();
        }
        int rank = shape.rank();
        int size = rank == 0 ? 12 : 20 + rank * 12;
        ensure(4 + size);
        field(size);
        putInt(len, rank == 0 ? 0 : 1);
        putInt(len + 4, 0);
        putInt(len + 8, INT8_OID);
        len += 12;
        if (rank > 0) {
            putInt(len, rank);
            putInt(len + 4, 1);
            len += 8;
            for (int i = 0; i < rank; i++) {
                putInt(len, 8);
                len += 4;
                putLong(shape.dim(i));
            }
        }
        return this;
    }

    /** A {@code bytea} holding {@code values} as 8-byte big-endian integers, one after the other. */
    CopyRows int8Packed(long[] values) {
        ensure(4 + values.length * 8);
        field(values.length * 8);
        for (long value : values) {
            putLong(value);
        }
        return this;
    }

    /** A {@code bytea}; a big one is sent as it is, without a copy into the buffer. */
    CopyRows bytea(byte[] value) throws SQLException {
        ensure(4 + Math.min(value.length, FLUSH_AT));
        field(value.length);
        if (value.length >= FLUSH_AT) {
            flush();
            copy.writeToCopy(value, 0, value.length);
        } else {
            System.arraycopy(value, 0, buf, len, value.length);
            len += value.length;
        }
        return this;
    }

    CopyRows nul() {
        ensure(4);
        field(-1);
        return this;
    }

    void endRow() throws SQLException {
        if (column != columns) {
            throw new IllegalStateException("row has " + column + " values for " + columns + " columns");
        }
        column = 0;
        rows++;
        if (len >= FLUSH_AT) {
            flush();
        }
    }

    /** Ends the COPY; returns the number of rows written. */
    long finish() throws SQLException {
        ensure(2);
        buf[len++] = (byte) 0xFF;
        buf[len++] = (byte) 0xFF;
        flush();
        copy.endCopy();
        return rows;
    }

    @Override
    public void close() throws SQLException {
        if (copy.isActive()) {
            copy.cancelCopy();
        }
    }

    /** Starts a field of the given byte length (-1: NULL); returns where its length is written. */
    private int field(int length) {
        if (column == 0) {
            buf[len++] = (byte) (columns >> 8);
            buf[len++] = (byte) columns;
        }
        column++;
        int at = len;
        putInt(at, length);
        len += 4;
        return at;
    }

    private void flush() throws SQLException {
        if (len > 0) {
            copy.writeToCopy(buf, 0, len);
            len = 0;
        }
    }

    private void putInt(int at, int v) {
        buf[at] = (byte) (v >>> 24);
        buf[at + 1] = (byte) (v >>> 16);
        buf[at + 2] = (byte) (v >>> 8);
        buf[at + 3] = (byte) v;
    }

    private void putLong(long v) {
        putInt(len, (int) (v >>> 32));
        putInt(len + 4, (int) v);
        len += 8;
    }

    private void replacement() {
        buf[len++] = (byte) 0xEF;
        buf[len++] = (byte) 0xBF;
        buf[len++] = (byte) 0xBD;
    }

    private void ensure(int extra) {
        // Room for the extra bytes plus a row's two-byte field count.
        if (len + extra + 2 > buf.length) {
            buf = java.util.Arrays.copyOf(buf, Math.max(buf.length * 2, len + extra + 2));
        }
    }
}
