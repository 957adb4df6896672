package io.tracegraph.postgres;

import java.lang.reflect.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLXML;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.postgresql.util.PGobject;

/**
 * Turns the columns of an ad-hoc query into plain Java values, so that no JDBC or PgJDBC type
 * leaves the adapter: text, numbers, booleans and UUIDs as they come; date and time types as
 * {@code java.time} values; arrays as (nested) lists; {@code bytea} (also inside arrays, as the
 * packs' {@code bytea[]} columns) as PostgreSQL writes it ({@code \x0102}); JSON, intervals,
 * network addresses and every other type as the text PostgreSQL gives for it.
 */
final class AdHocSqlValues {
    private AdHocSqlValues() {
    }

    static Object value(ResultSet rs, int column, String typeName) throws SQLException {
        switch (typeName) {
            case "timestamptz":
                return rs.getObject(column, OffsetDateTime.class);
            case "timestamp":
                return rs.getObject(column, LocalDateTime.class);
            case "date":
                return rs.getObject(column, LocalDate.class);
            case "time":
                return rs.getObject(column, LocalTime.class);
            case "timetz":
                return rs.getObject(column, OffsetTime.class);
            default:
                break;
        }
        Object v = rs.getObject(column);
        if (v instanceof java.sql.Array array) {
            try {
                return plain(array.getArray());
            } finally {
                array.free();
            }
        }
        if (v instanceof PGobject) {
            // PostgreSQL's own text (an interval as "1 day", not PgJDBC's spelling).
            return rs.getString(column);
        }
        if (v instanceof SQLXML xml) {
            try {
                return xml.getString();
            } finally {
                xml.free();
            }
        }
        return plain(v);
    }

    private static Object plain(Object v) {
        if (v == null || v instanceof String || v instanceof Number || v instanceof Boolean || v instanceof UUID) {
            return v;
        }
        if (v instanceof byte[] bytes) {
            return "\\x" + HexFormat.of().formatHex(bytes);
        }
        if (v instanceof PGobject object) {
            return object.getValue();
        }
        if (v instanceof java.sql.Timestamp timestamp) {
            return timestamp.toLocalDateTime();
        }
        if (v instanceof java.sql.Date date) {
            return date.toLocalDate();
        }
        if (v instanceof java.sql.Time time) {
            return time.toLocalTime();
        }
        if (v.getClass().isArray()) {
            int length = Array.getLength(v);
            List<Object> list = new ArrayList<>(length);
            for (int k = 0; k < length; k++) {
                list.add(plain(Array.get(v, k)));
            }
            return Collections.unmodifiableList(list);
        }
        if (v instanceof Map<?, ?> map) {
            // hstore
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((key, value) -> copy.put(String.valueOf(key), plain(value)));
            return Collections.unmodifiableMap(copy);
        }
        return v.toString();
    }
}
