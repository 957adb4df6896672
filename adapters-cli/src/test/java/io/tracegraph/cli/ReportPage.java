package io.tracegraph.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** A report page as tests read it: its HTML text and the JSON data the page's script draws. */
record ReportPage(String html, JsonNode data) {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String DATA_START = "<script type=\"application/json\" id=\"report-data\">";

    static ReportPage read(Path file) throws IOException {
        String html = Files.readString(file, StandardCharsets.UTF_8);
        int from = html.indexOf(DATA_START);
        if (from < 0) {
            throw new IllegalStateException(file + " has no report data");
        }
        from += DATA_START.length();
        int to = html.indexOf("</script>", from);
        return new ReportPage(html, JSON.readTree(html.substring(from, to)));
    }

    JsonNode table(String id) {
        for (JsonNode t : data.get("tables")) {
            if (t.get("id").asText().equals(id)) {
                return t;
            }
        }
        throw new IllegalArgumentException("no table " + id);
    }
}
