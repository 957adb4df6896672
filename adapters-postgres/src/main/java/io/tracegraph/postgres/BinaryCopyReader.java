package io.tracegraph.postgres;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyOut;

/**
 * Reads the rows of a {@code COPY (...) TO STDOUT (FORMAT binary)} field by field: the reading
 * counterpart of {@link CopyRows}, for the reads of many values (a run's packed path statistics)
 * whose decoding through the text protocol would cost more than the server's work. The whole
 * output is received first (a few MB for the reads that use it), then decoded from memory; the
 * caller reads each row's fields in the query's column order.
 */
final class BinaryCopyReader {
    private static final byte[] SIGNATURE = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xFF, '\r', '\n', 0};
    /** The node kinds, decoded once: a run has tens of thousands of rows naming one of them. */
    private static final String[] KINDS = {"root", "function", "module", "op", "other"};
    private static final byte[][] KIND_BYTES = Arrays.stream(KINDS)
            .map(k -> k.getBytes(StandardCharsets.US_ASCII)).toArray(byte[][]::new);
    private static final int TEXT_OID = 25;
    private static final int INT8_OID = 20;
    private static final int BYTEA_OID = 17;

    private final ByteBuffer data;
    private int fieldsLeft;

    private BinaryCopyReader(ByteBuffer data) {
        this.data = data;
    }

    /** Runs {@code copyQuery} on {@code connection} and receives its whole output. */
    static BinaryCopyReader read(Connection connection, String copyQuery) throws SQLException {
        CopyOut copy = connection.unwrap(PGConnection.class).getCopyAPI().copyOut(copyQuery);
        // The server sends a message per row: received as they come, joined once.
        List<byte[]> chunks = new ArrayList<>();
        long size = 0;
        try {
            for (byte[] chunk = copy.readFromCopy(); chunk != null; chunk = copy.readFromCopy()) {
                chunks.add(chunk);
                size += chunk.length;
            }
        } finally {
            if (copy.isActive()) {
                copy.cancelCopy();
            }
        }
        if (size > Integer.MAX_VALUE - 16) {
            throw new SQLException("the COPY output is larger than 2 GiB");
        }
        byte[] all = chunks.size() == 1 ? chunks.get(0) : new byte[(int) size];
        if (chunks.size() != 1) {
            int at = 0;
            for (byte[] chunk : chunks) {
                System.arraycopy(chunk, 0, all, at, chunk.length);
                at += chunk.length;
            }
        }
        BinaryCopyReader reader = new BinaryCopyReader(ByteBuffer.wrap(all));
        reader.readHeader();
        return reader;
    }

    private void readHeader() throws SQLException {
        try {
            byte[] signature = new byte[SIGNATURE.length];
            data.get(signature);
            if (!Arrays.equals(signature, SIGNATURE)) {
                throw new SQLException("not a binary COPY stream");
            }
            data.getInt();
            int extension = data.getInt();
            data.position(data.position() + extension);
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new SQLException("the COPY stream ends in its header", e);
        }
    }

    /** Moves to the next row; false at the end of the data. */
    boolean nextRow() throws SQLException {
        if (fieldsLeft != 0) {
            throw new IllegalStateException(fieldsLeft + " fields of the row were not read");
        }
        if (data.remaining() < 2) {
            return false;
        }
        short fields = data.getShort();
        if (fields == -1) {
            return false;
        }
        fieldsLeft = fields;
        return true;
    }

    /** The next field, a non-null {@code integer}. */
    int int4() throws SQLException {
        int length = field();
        if (length != 4) {
            throw new SQLException("unexpected field length " + length + " in the COPY stream, expected 4");
        }
        return data.getInt();
    }

    /** The next field, a {@code bytea} of {@code n} packed 8-byte big-endian integers (null when NULL). */
    long[] int8Packed(int n) throws SQLException {
        int length = field();
        if (length < 0) {
            return null;
        }
        if (length != n * 8L) {
            throw new SQLException("unexpected field length " + length + " in the COPY stream, expected " + n * 8L);
        }
        long[] values = new long[n];
        data.slice().asLongBuffer().get(values);
        data.position(data.position() + length);
        return values;
    }

    /** The next field, a {@code bytea} as a view of the received bytes (null when NULL). */
    ByteBuffer bytea() throws SQLException {
        int length = field();
        if (length < 0) {
            return null;
        }
        ByteBuffer value = data.slice(data.position(), length);
        data.position(data.position() + length);
        return value;
    }

    /** The next field, a non-null {@code bigint[]} of at most one dimension without NULLs. */
    long[] int8Array() throws SQLException {
        long[] values = int8ArrayOrNull();
        if (values == null) {
            throw new SQLException("unexpected NULL array in the COPY stream");
        }
        return values;
    }

    /** The next field, a {@code bigint[]} of at most one dimension without NULLs (null when NULL). */
    long[] int8ArrayOrNull() throws SQLException {
        int n = arrayLength(INT8_OID, true);
        if (n < 0) {
            return null;
        }
        long[] values = new long[n];
        for (int i = 0; i < n; i++) {
            if (element() != 8) {
                throw new SQLException("unexpected bigint length in the COPY stream");
            }
            values[i] = data.getLong();
        }
        return values;
    }

    /** The next field, a {@code text[]} of at most one dimension without NULLs (null when NULL). */
    String[] textArrayOrNull() throws SQLException {
        int n = arrayLength(TEXT_OID, true);
        return n < 0 ? null : texts(n);
    }

    /** The next field, a non-null {@code text[]} of at most one dimension without NULLs. */
    String[] textArray() throws SQLException {
        return texts(arrayLength(TEXT_OID, false));
    }

    /** The next field, a non-null {@code bytea[]} of at most one dimension without NULLs, as views of the bytes. */
    ByteBuffer[] byteaArray() throws SQLException {
        int n = arrayLength(BYTEA_OID, false);
        ByteBuffer[] values = new ByteBuffer[n];
        for (int i = 0; i < n; i++) {
            int length = element();
            values[i] = data.slice(data.position(), length);
            data.position(data.position() + length);
        }
        return values;
    }

    private String[] texts(int n) throws SQLException {
        String[] values = new String[n];
        for (int i = 0; i < n; i++) {
            int length = element();
            values[i] = new String(data.array(), data.position(), length, StandardCharsets.UTF_8);
            data.position(data.position() + length);
        }
        return values;
    }

    /**
     * The next field, a {@code text} of {@code n} node kinds joined by line feeds (null when NULL):
     * the shared strings for the known kinds (a run names one of them for each of its paths).
     */
    String[] kindLines(int n) throws SQLException {
        int length = field();
        if (length < 0) {
            return null;
        }
        String[] kinds = new String[n];
        byte[] bytes = data.array();
        int at = data.position();
        int end = at + length;
        for (int i = 0; i < n; i++) {
            int stop = at;
            while (stop < end && bytes[stop] != '\n') {
                stop++;
            }
            if (stop == end && i < n - 1) {
                throw new SQLException("the COPY stream holds fewer than " + n + " kinds");
            }
            for (int k = 0; k < KINDS.length && kinds[i] == null; k++) {
                if (KIND_BYTES[k].length == stop - at && Arrays.equals(bytes, at, stop, KIND_BYTES[k], 0, stop - at)) {
                    kinds[i] = KINDS[k];
                }
            }
            if (kinds[i] == null) {
                kinds[i] = new String(bytes, at, stop - at, StandardCharsets.UTF_8);
            }
            at = stop + 1;
        }
        if (n > 0 ? at != end + 1 : length != 0) {
            throw new SQLException("the COPY stream holds more than " + n + " kinds");
        }
        data.position(end);
        return kinds;
    }

    /** Reads an array field's header; returns its number of elements (-1: NULL, when allowed). */
    private int arrayLength(int elementOid, boolean nullable) throws SQLException {
        int length = field();
        if (length < 0 && nullable) {
            return -1;
        }
        if (length < 12) {
            throw new SQLException(length < 0 ? "unexpected NULL array in the COPY stream"
                    : "unexpected array field length " + length + " in the COPY stream");
        }
        int end = data.position() + length;
        int dimensions = data.getInt();
        int hasNulls = data.getInt();
        int oid = data.getInt();
        if (dimensions > 1 || hasNulls != 0 || oid != elementOid) {
            throw new SQLException("unexpected array in the COPY stream: " + dimensions + " dimensions, element type "
                    + oid + (hasNulls != 0 ? ", with NULLs" : ""));
        }
        if (dimensions == 0) {
            return 0;
        }
        if (length < 20) {
            throw new SQLException("the COPY stream ends inside an array header");
        }
        int n = data.getInt();
        data.getInt();
        // Each element takes at least its 4-byte length.
        if (n < 0 || (long) n * 4 > end - data.position()) {
            throw new SQLException("the COPY stream ends inside an array of " + n + " elements");
        }
        return n;
    }

    /** Reads a text array element's length; returns it. */
    private int element() throws SQLException {
        if (data.remaining() < 4) {
            throw new SQLException("the COPY stream ends inside an array");
        }
        int length = data.getInt();
        if (length < 0 || length > data.remaining()) {
            throw new SQLException("unexpected array element length " + length + " in the COPY stream");
        }
        return length;
    }

    private int field() throws SQLException {
        if (fieldsLeft-- <= 0) {
            throw new IllegalStateException("no field left in the row");
        }
        if (data.remaining() < 4) {
            throw new SQLException("the COPY stream ends inside a row");
        }
        int length = data.getInt();
        if (length > data.remaining()) {
            throw new SQLException("the COPY stream ends inside a field");
        }
        return length;
    }
}
