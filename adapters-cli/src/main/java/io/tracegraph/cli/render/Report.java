package io.tracegraph.cli.render;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What a listing command prints: headline facts, then tables. One renderer serves every format. */
public record Report(Map<String, Object> facts, List<Table> tables) {
    public Report {
        facts = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(facts));
        tables = List.copyOf(tables);
    }
}
