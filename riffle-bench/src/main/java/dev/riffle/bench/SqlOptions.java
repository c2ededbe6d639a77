package dev.riffle.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@link SqlBenchmark}'s settings, parsed from {@code --name value} pairs (a leading bare number
 * is the row count, as in the other benchmarks) and handed to the measuring JVM the same way.
 *
 * @param rows rows in the log table the GROUP BY reads
 * @param groups distinct values of {@code k} among them
 * @param keys keys in the primary-key table the point queries look up
 * @param lookups measured point queries per side
 * @param rounds measured GROUP BY rounds per side (after one warm-up round)
 * @param lookupBatchTimeout {@code client.lookup.batch-timeout} on both sides of the point queries
 * @param only {@code lookup}, {@code groupby}, {@code topn}, {@code computed} or {@code distinct} to run one part, empty for all
 * @param jfr a JFR file: extra Riffle SQL GROUP BY rounds, and only those, are recorded into it
 */
record SqlOptions(int rows, int groups, int keys, int lookups, int rounds, String lookupBatchTimeout,
        Optional<String> only, Optional<String> jfr) {
    static final String USAGE = "SqlBenchmark [ROWS] [--rows N] [--groups N] [--keys N] [--lookups N] [--rounds N]"
            + " [--lookup-batch-timeout 100micros] [--only lookup|groupby|topn|computed|distinct] [--jfr FILE]";

    static SqlOptions parse(String[] args) {
        List<String> values = new ArrayList<>();
        for (String arg : args) {
            values.addAll(List.of(arg.trim().split("\\s+")));
        }
        values.removeIf(String::isEmpty);
        int rows = 5_000_000;
        int groups = 10_000;
        Integer keys = null;
        Integer lookups = null;
        int rounds = 5;
        // Small enough not to hide the SQL layer: a lone lookup waits the whole batch timeout, and at
        // the driver's 1 ms default that timer is most of a point query's latency on loopback.
        String timeout = "100micros";
        Optional<String> only = Optional.empty();
        Optional<String> jfr = Optional.empty();
        for (int i = 0; i < values.size(); i++) {
            String name = values.get(i);
            if (i == 0 && name.matches("\\d+")) {
                rows = Integer.parseInt(name);
                continue;
            }
            if (i + 1 >= values.size()) {
                throw new IllegalArgumentException("Option " + name + " needs a value; usage: " + USAGE);
            }
            String value = values.get(++i);
            switch (name) {
                case "--rows" -> rows = Integer.parseInt(value);
                case "--groups" -> groups = Integer.parseInt(value);
                case "--keys" -> keys = Integer.parseInt(value);
                case "--lookups" -> lookups = Integer.parseInt(value);
                case "--rounds" -> rounds = Integer.parseInt(value);
                case "--lookup-batch-timeout" -> timeout = value;
                case "--only" -> {
                    if (!List.of("lookup", "groupby", "topn", "computed", "distinct").contains(value)) {
                        throw new IllegalArgumentException("--only takes lookup, groupby, topn, computed or distinct, got "
                                + value);
                    }
                    only = Optional.of(value);
                }
                case "--jfr" -> jfr = Optional.of(value);
                default -> throw new IllegalArgumentException("Unknown option " + name + "; usage: " + USAGE);
            }
        }
        // Small runs (smoke checks) load fewer keys and do fewer lookups unless told otherwise.
        boolean small = rows < 1_000_000;
        int keyCount = keys != null ? keys : small ? 20_000 : 100_000;
        int measured = lookups != null ? lookups : small ? 5_000 : 20_000;
        if (rows < 1 || groups < 1 || keyCount < 1 || measured < 1 || rounds < 1) {
            throw new IllegalArgumentException("--rows, --groups, --keys, --lookups and --rounds must be at least 1");
        }
        return new SqlOptions(rows, Math.min(groups, rows), keyCount, measured, rounds, timeout, only, jfr);
    }

    boolean runsLookups() {
        return only.isEmpty() || only.get().equals("lookup");
    }

    boolean runsGroupBy() {
        return only.isEmpty() || only.get().equals("groupby");
    }

    boolean runsTopN() {
        return only.isEmpty() || only.get().equals("topn");
    }

    boolean runsComputed() {
        return only.isEmpty() || only.get().equals("computed");
    }

    boolean runsDistinct() {
        return only.isEmpty() || only.get().equals("distinct");
    }

    /** The options again as arguments, for the measuring JVM. */
    List<String> toArgs() {
        List<String> args = new ArrayList<>(List.of("--rows", Integer.toString(rows), "--groups", Integer.toString(groups),
                "--keys", Integer.toString(keys), "--lookups", Integer.toString(lookups), "--rounds",
                Integer.toString(rounds), "--lookup-batch-timeout", lookupBatchTimeout));
        only.ifPresent(o -> args.addAll(List.of("--only", o)));
        jfr.ifPresent(f -> args.addAll(List.of("--jfr", f)));
        return args;
    }
}
