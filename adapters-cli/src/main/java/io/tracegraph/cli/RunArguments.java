package io.tracegraph.cli;

import io.tracegraph.domain.trace.ComparisonIdentity;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * What a run, a set of runs or a trace file given on the command line may be, checked before any
 * use case runs, so before any database is started: a mistake there is a usage error (exit 2) in
 * one line that names the argument and what it accepts. Whether a run_id is stored is the store's
 * to say; the shape of a reference, and whether a trace file exists, is not.
 */
final class RunArguments {
    /** The most runs {@code latest~N} looks back (the store reads N as nine digits at most). */
    static final long MAX_BACK = 999_999_999L;
    private static final Pattern LATEST = Pattern.compile("latest~(.*)");
    private static final Pattern RANGE = Pattern.compile("(latest(?:~[^.]*)?)\\.\\.(latest(?:~[^.]*)?)");
    private static final List<String> TRACE_SUFFIXES = List.of(".jsonl", ".jsonl.gz", ".json", ".json.gz");

    private RunArguments() {
    }

    /** A trace file that must exist ({@code build}, {@code check}, ...). */
    static void traceFile(CommandSpec spec, Path file) {
        if (!Files.isRegularFile(file)) {
            throw usage(spec, file + (Files.isDirectory(file) ? ": is a directory, not a trace file" : ": no such file"));
        }
    }

    /**
     * One run ({@code label} names the argument, e.g. {@code BASE}): a run_id or a prefix of one,
     * {@code latest}, {@code latest~N}, or a trace file, which must then exist.
     */
    static void run(CommandSpec spec, String label, String reference) {
        String problem = problem(reference.strip());
        if (problem != null) {
            throw usage(spec, label + ": " + problem);
        }
    }

    /**
     * A set of runs ({@code option} names it, e.g. {@code --baseline}): a comma-separated list of
     * runs, {@code tag:KEY=VALUE}s and ranges {@code latest~A..latest~B}, each named once.
     */
    /** What is wrong with {@code identity:MEMBER=VALUE}, or null. */
    private static String identityProblem(String p) {
        int eq = p.indexOf('=');
        if (eq <= "identity:".length()) {
            return "`" + p + "`: expected identity:MEMBER=VALUE";
        }
        String member = p.substring("identity:".length(), eq);
        return ComparisonIdentity.memberNamed(member).isPresent() ? null : "`" + p + "`: `" + member
                + "` is not a comparison identity member (" + String.join(", ", ComparisonIdentity.MEMBERS) + ")";
    }

    static void set(CommandSpec spec, String option, String set) {
        Set<String> seen = new HashSet<>();
        boolean any = false;
        for (String part : set.split(",", -1)) {
            String p = part.strip();
            if (p.isEmpty()) {
                continue;
            }
            any = true;
            String problem;
            Matcher range = RANGE.matcher(p);
            if (range.matches()) {
                problem = back(range.group(1));
                problem = problem != null ? problem : back(range.group(2));
            } else if (p.startsWith("tag:")) {
                problem = p.indexOf('=') > 4 ? null
                        : "`" + p + "`: expected tag:KEY=VALUE";
            } else if (p.startsWith("identity:")) {
                problem = identityProblem(p);
            } else {
                problem = problem(p);
            }
            if (problem != null) {
                throw usage(spec, option + ": " + problem);
            }
            if (!seen.add(p)) {
                throw usage(spec, option + ": `" + p + "` is listed twice; a set holds each run once");
            }
        }
        if (!any) {
            throw usage(spec, option + ": names no run (expected runs, tag:KEY=VALUE, identity:MEMBER=VALUE or "
                    + "latest~N..latest, separated by commas)");
        }
    }

    /** A run, or a set when it reads as one (a list, {@code tag:KEY=VALUE} or a range): {@code report --compare}. */
    static void runOrSet(CommandSpec spec, String label, String reference) {
        String r = reference.strip();
        if (r.contains(",") || r.startsWith("tag:") || RANGE.matcher(r).matches()) {
            set(spec, label, reference);
        } else {
            run(spec, label, reference);
        }
    }

    private static String problem(String reference) {
        if (reference.isEmpty()) {
            return "empty run reference (expected a run_id, a prefix of one, latest, latest~N or a trace file)";
        }
        Matcher latest = LATEST.matcher(reference);
        if (latest.matches()) {
            return back(reference);
        }
        if (TRACE_SUFFIXES.stream().anyMatch(reference::endsWith)) {
            try {
                Path path = Path.of(reference);
                if (!Files.isRegularFile(path)) {
                    return reference + (Files.isDirectory(path) ? ": is a directory, not a trace file"
                            : ": no such file");
                }
            } catch (InvalidPathException e) {
                return reference + ": not a file name";
            }
        }
        return null;
    }

    /** What is wrong with {@code latest} or {@code latest~N}, or null. */
    private static String back(String latest) {
        if (latest.equals("latest")) {
            return null;
        }
        String n = latest.substring("latest~".length());
        boolean digits = !n.isEmpty() && n.chars().allMatch(c -> c >= '0' && c <= '9');
        if (digits && (n.length() < 10 || Long.parseLong(n) <= MAX_BACK)) {
            return null;
        }
        return "`" + latest + "`: expected latest~N with N a whole number from 0 to " + MAX_BACK;
    }

    private static CommandLine.ParameterException usage(CommandSpec spec, String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
