package io.tracegraph.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EmbeddedPostgresServerTest {
    @Test
    void homeIsTracegraphHomeFirst() {
        assertThat(EmbeddedPostgresServer.defaultHome(Map.of("TRACEGRAPH_HOME", "/data/tg", "XDG_DATA_HOME", "/x"),
                "/home/me")).isEqualTo(Path.of("/data/tg"));
    }

    @Test
    void homeFollowsXdgDataHome() {
        assertThat(EmbeddedPostgresServer.defaultHome(Map.of("XDG_DATA_HOME", "/x/share"), "/home/me"))
                .isEqualTo(Path.of("/x/share/tracegraph"));
    }

    @Test
    void homeDefaultsToLocalShare() {
        assertThat(EmbeddedPostgresServer.defaultHome(Map.of("XDG_DATA_HOME", "relative"), "/home/me"))
                .isEqualTo(Path.of("/home/me/.local/share/tracegraph"));
    }
}
