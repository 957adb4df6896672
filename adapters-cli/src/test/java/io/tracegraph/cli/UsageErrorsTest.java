package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every bad argument is a usage error: exit 2 and one line on standard error that names the
 * argument and what it accepts, found while the command line is read, so before any database is
 * started (the tracegraph home stays empty, and the database URL given points nowhere: a command
 * that tried it would fail with exit 3 instead).
 */
class UsageErrorsTest {
    @TempDir
    static Path dir;
    private static String a;
    private static String b;

    @BeforeAll
    static void samples() throws IOException {
        a = copy("train_tiny.jsonl");
        b = copy("synthetic.jsonl");
    }

    private static String copy(String name) throws IOException {
        Path target = dir.resolve(name);
        try (InputStream in = UsageErrorsTest.class.getResourceAsStream("/conformance/" + name)) {
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        }
        return target.toString();
    }

    static Stream<Arguments> badInputs() {
        List<Arguments> cases = new ArrayList<>();
        // The cases.
        cases.add(Arguments.of(List.of("compare", "--baseline", "A,A", "--candidate", "B"),
                "--baseline: `A` is listed twice; a set holds each run once"));
        cases.add(Arguments.of(List.of("compare", "--threshold", "-5", "A", "B"),
                "Invalid value for option '--threshold': expected a percentage, a number of 0 or more (e.g. 5 or 2.5), "
                        + "got '-5'"));
        cases.add(Arguments.of(List.of("compare", "--fail-on-regression", "NaN", "--baseline", "A", "--candidate", "B"),
                "Invalid value for option '--fail-on-regression': expected a percentage"));
        cases.add(Arguments.of(List.of("compare", "--baseline", "latest~99999999999..latest", "--candidate", "latest"),
                "--baseline: `latest~99999999999`: expected latest~N with N a whole number from 0 to 999999999"));
        cases.add(Arguments.of(List.of("sql", "--timeout", "0", "SELECT 1"),
                "Invalid value for option '--timeout': expected whole seconds from 1 to 2147483, got '0'"));
        cases.add(Arguments.of(List.of("compare", "missing.jsonl", "A"), "BASE: missing.jsonl: no such file"));
        // A missing trace file is named as such everywhere.
        cases.add(Arguments.of(List.of("compare", "A", "gone/missing.jsonl.gz"), "CAND: gone/missing.jsonl.gz: no such file"));
        cases.add(Arguments.of(List.of("compare", "--baseline", "A,missing.json", "--candidate", "B"),
                "--baseline: missing.json: no such file"));
        cases.add(Arguments.of(List.of("build", "missing.jsonl"), "missing.jsonl: no such file"));
        cases.add(Arguments.of(List.of("check", "missing.jsonl"), "missing.jsonl: no such file"));
        cases.add(Arguments.of(List.of("query", "missing.jsonl", "--kind", "slowest"), "RUN: missing.jsonl: no such file"));
        cases.add(Arguments.of(List.of("show", "missing.jsonl"), "RUN: missing.jsonl: no such file"));
        cases.add(Arguments.of(List.of("report", "missing.jsonl", "-o", "x.html"), "RUN: missing.jsonl: no such file"));
        cases.add(Arguments.of(List.of("report", "--compare", "A", "missing.jsonl", "-o", "x.html"),
                "CAND: missing.jsonl: no such file"));
        cases.add(Arguments.of(List.of("export", "missing.jsonl", "-o", "x.json"), "RUN: missing.jsonl: no such file"));
        cases.add(Arguments.of(List.of("build", "."), ".: is a directory, not a trace file"));
        // Run references and sets.
        cases.add(Arguments.of(List.of("show", "latest~-1"), "RUN: `latest~-1`: expected latest~N with N a whole number"));
        cases.add(Arguments.of(List.of("show", "latest~1000000000"), "RUN: `latest~1000000000`: expected latest~N"));
        cases.add(Arguments.of(List.of("show", " "), "RUN: empty run reference (expected a run_id, a prefix of one, "
                + "latest, latest~N or a trace file)"));
        cases.add(Arguments.of(List.of("compare", "--baseline", ",,", "--candidate", "B"), "--baseline: names no run"));
        cases.add(Arguments.of(List.of("compare", "--baseline", "tag:commit", "--candidate", "B"),
                "--baseline: `tag:commit`: expected tag:KEY=VALUE"));
        cases.add(Arguments.of(List.of("compare", "--baseline", "latest~3..latest~x", "--candidate", "B"),
                "--baseline: `latest~x`: expected latest~N"));
        cases.add(Arguments.of(List.of("report", "--compare", "tag:a=1,tag:a=1", "B", "-o", "x.html"),
                "BASE: `tag:a=1` is listed twice"));
        // Every option's range.
        cases.add(Arguments.of(List.of("compare", "--limit", "-1", "A", "B"),
                "Invalid value for option '--limit': expected a whole number of 0 or more (0 for all), got '-1'"));
        cases.add(Arguments.of(List.of("compare", "--limit", "99999999999", "A", "B"),
                "Invalid value for option '--limit': expected a whole number of 0 or more"));
        cases.add(Arguments.of(List.of("compare", "--threshold", "Infinity", "A", "B"),
                "Invalid value for option '--threshold': expected a percentage"));
        cases.add(Arguments.of(List.of("compare", "--fail-on-regression", "-1", "--baseline", "A", "--candidate", "B"),
                "Invalid value for option '--fail-on-regression': expected a percentage"));
        cases.add(Arguments.of(List.of("report", "--compare", "--threshold", "-1", "A", "B", "-o", "x.html"),
                "Invalid value for option '--threshold': expected a percentage"));
        cases.add(Arguments.of(List.of("report", "A", "--max-nodes", "99", "-o", "x.html"),
                "--max-nodes must be at least 100"));
        cases.add(Arguments.of(List.of("runs", "--limit", "0"), "--limit must be at least 1"));
        cases.add(Arguments.of(List.of("runs", "--limit", "99999999999"), "Invalid value for option '--limit'"));
        cases.add(Arguments.of(List.of("runs", "--since", "yesterday"), "--since: not a date: 'yesterday'"));
        cases.add(Arguments.of(List.of("sql", "--timeout", "2147484", "SELECT 1"),
                "Invalid value for option '--timeout': expected whole seconds from 1 to 2147483"));
        cases.add(Arguments.of(List.of("sql", "--timeout", "1.5", "SELECT 1"), "Invalid value for option '--timeout'"));
        cases.add(Arguments.of(List.of("sql", "--max-rows", "0", "SELECT 1"),
                "Invalid value for option '--max-rows': expected a whole number of 1 or more, got '0'"));
        cases.add(Arguments.of(List.of("import", "--jobs", "0", "A"), "--jobs must be at least 1"));
        cases.add(Arguments.of(List.of("import", "--max-trace-size", "lots", "A"), "not a size: 'lots'"));
        cases.add(Arguments.of(List.of("query", "A", "--kind", "fastest"), "unknown kind 'fastest'"));
        cases.add(Arguments.of(List.of("export", "A", "--format", "svg", "-o", "x.json"), "svg"));
        for (String command : List.of("runs", "show latest", "query A --kind slowest", "compare A B", "history p",
                "sql x", "import A")) {
            List<String> args = new ArrayList<>(List.of(command.split(" ")));
            args.addAll(List.of("--format", "xml"));
            cases.add(Arguments.of(List.copyOf(args),
                    "Invalid value for option '--format': unknown format 'xml' (expected table, csv, json or markdown)"));
            List<String> colour = new ArrayList<>(List.of(command.split(" ")));
            colour.addAll(List.of("--color", "blue"));
            cases.add(Arguments.of(List.copyOf(colour),
                    "Invalid value for option '--color': 'blue' is not a colour mode (expected auto, always or never)"));
        }
        cases.add(Arguments.of(List.of("compare", "A"), "give either BASE CAND, or --baseline SET and --candidate SET"));
        cases.add(Arguments.of(List.of("rusn"), "Unmatched argument at index 0: 'rusn'; did you mean runs?"));
        return cases.stream();
    }

    @ParameterizedTest
    @MethodSource("badInputs")
    void isAUsageErrorOfOneLineBeforeAnyDatabaseStarts(List<String> args, String expected) {
        Path home = dir.resolve("home-" + Math.abs(args.hashCode()));
        String[] argv = args.stream().map(x -> x.equals("A") ? a : x.equals("B") ? b : x).toArray(String[]::new);
        CliRun run = CliRun.with(Map.of("TRACEGRAPH_DB_URL", "jdbc:postgresql://127.0.0.1:1/nowhere"), home, argv);

        assertThat(run.status()).as(run.err()).isEqualTo(ExitCode.USAGE);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).as("one line").endsWith("\n").doesNotContain("\tat ", "Exception")
                .satisfies(err -> assertThat(err.lines().count()).isEqualTo(1));
        assertThat(run.err()).startsWith("error: ").contains(expected).contains(" --help')");
        assertThat(home).as("no embedded database was started").doesNotExist();
    }
}
