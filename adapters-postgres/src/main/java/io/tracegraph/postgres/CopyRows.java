package io.tracegraph.postgres;

import io.tracegraph.domain.trace.Shape;
import java.sql.SQLException;
import org.postgresql.copy.CopyIn;
import org.postgresql.copy.CopyManager;

/**
 * Streams rows into one {@code COPY ... FROM STDIN} (text format) through a reusable buffer,
 * encoding UTF-8 and the text-format escapes by hand. PostgreSQL text cannot hold U+0000, so it is
 * stored as U+FFFD; a lone surrogate likewise.
 */
final class CopyRows implements AutoCloseable {
    private static final int FLUSH_AT = 1 << 20;

    private final CopyIn copy;
    private byte[] buf = new byte[FLUSH_AT + (64 << 10)];
    private int len;
    private boolean firstColumn = true;
    private long rows;

    private CopyRows(CopyIn copy) {
        this.copy = copy;
    }

    static CopyRows open(CopyManager copyApi, String table, String columns) throws SQLException {
        return new CopyRows(copyApi.copyIn("COPY " + table + " (" + columns + ") FROM STDIN"));
    }

    CopyRows text(String value) {
        if (value == null) {
            return nul();
        }
        separate();
        int n = value.length();
        ensure(n * 3 + 8);
        for (int i = 0; i < n; i++) {
            char c = value.charAt(i);
            if (c < 0x80) {
                switch (c) {
                    case '\\': put2('\\', '\\'); break;
                    case '\t': put2('\\', 't'); break;
                    case '\n': put2('\\', 'n'); break;
                    case '\r': put2('\\', 'r'); break;
                    case 0: replacement(); break;
                    default: buf[len++] = (byte) c;
                }
            } else if (c < 0x800) {
                buf[len++] = (byte) (0xC0 | (c >> 6));
                buf[len++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(value.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, value.charAt(++i));
                ensure((n - i) * 3 + 8);
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
        return this;
    }

    CopyRows num(long value) {
        separate();
        ensure(20);
        if (value == Long.MIN_VALUE) {
            return ascii(Long.toString(value));
        }
        if (value < 0) {
            buf[len++] = '-';
            value = -value;
        }
        int start = len;
        do {
            buf[len++] = (byte) ('0' + value % 10);
            value /= 10;
        } while (value != 0);
        for (int a = start, b = len - 1; a < b; a++, b--) {
            byte t = buf[a];
            buf[a] = buf[b];
            buf[b] = t;
        }
        return this;
    }

    CopyRows num(Long value) {
        return value == null ? nul() : num(value.longValue());
    }

    CopyRows dbl(Double value) {
        if (value == null) {
            return nul();
        }
        separate();
        return ascii(Double.toString(value));
    }

    CopyRows bool(boolean value) {
        separate();
        ensure(1);
        buf[len++] = (byte) (value ? 't' : 'f');
        return this;
    }

    /** A {@code bigint[]} in array literal form ({@code {2,16,64}}); {@code null} stays NULL. */
    CopyRows array(Shape shape) {
        if (shape == null) {
            return nul();
        }
        separate();
        ensure(1);
        buf[len++] = '{';
        for (int i = 0; i < shape.rank(); i++) {
            if (i > 0) {
                ensure(1);
                buf[len++] = ',';
            }
            firstColumn = true;
            num(shape.dim(i));
        }
        ensure(1);
        buf[len++] = '}';
        firstColumn = false;
        return this;
    }

    CopyRows nul() {
        separate();
        ensure(2);
        put2('\\', 'N');
        return this;
    }

    void endRow() throws SQLException {
        ensure(1);
        buf[len++] = '\n';
        firstColumn = true;
        rows++;
        if (len >= FLUSH_AT) {
            flush();
        }
    }

    /** Ends the COPY; returns the number of rows written. */
    long finish() throws SQLException {
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

    private void flush() throws SQLException {
        if (len > 0) {
            copy.writeToCopy(buf, 0, len);
            len = 0;
        }
    }

    private CopyRows ascii(String s) {
        ensure(s.length());
        for (int i = 0; i < s.length(); i++) {
            buf[len++] = (byte) s.charAt(i);
        }
        return this;
    }

    private void separate() {
        if (!firstColumn) {
            ensure(1);
            buf[len++] = '\t';
        }
        firstColumn = false;
    }

    private void replacement() {
        buf[len++] = (byte) 0xEF;
        buf[len++] = (byte) 0xBF;
        buf[len++] = (byte) 0xBD;
    }

    private void put2(char a, char b) {
        buf[len++] = (byte) a;
        buf[len++] = (byte) b;
    }

    private void ensure(int extra) {
        if (len + extra > buf.length) {
            buf = java.util.Arrays.copyOf(buf, Math.max(buf.length * 2, len + extra));
        }
    }
}
