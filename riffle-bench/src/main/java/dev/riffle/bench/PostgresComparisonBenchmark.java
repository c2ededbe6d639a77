package dev.riffle.bench;

import static java.nio.charset.StandardCharsets.US_ASCII;

import dev.riffle.local.LocalCluster;
import dev.riffle.pgwire.PgWireServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.stream.Stream;
import org.postgresql.PGConnection;

/**
 * Issue 40's benchmark: rows Riffle's PostgreSQL port sends ÷ the same rows sent by PostgreSQL
 * itself (the machine's PostgreSQL server, started by the benchmark in a directory and on a port
 * of its own), both loaded with the same rows by {@code COPY FROM STDIN}, both warm, alternating
 * in every round, every round printed, medians compared:
 * <ul>
 *   <li>{@code COPY (SELECT ...) TO STDOUT} by a {@code psql} process, whole process (start,
 *       connect, copy, exit), its output counted line by line: target &gt;= 1.0x;</li>
 *   <li>{@code SELECT *} through pgjdbc in a JVM of its own (text results, a portion of 10,000
 *       rows at a time inside a transaction, every value read, the ids summed): target &gt;= 1.0x;</li>
 *   <li>{@code SELECT *} by a {@code psql} process ({@code -A -t}, whole result), reported.</li>
 * </ul>
 * The table has an INT, a TEXT, a BIGINT and a DOUBLE PRECISION column. Riffle serves it from the
 * Fluss log of an in-process cluster (one JVM with the tablet server, as {@code riffle local}).
 *
 * <pre>
 * mvn -q -B install -DskipTests &amp;&amp; mvn -q -B -pl riffle-bench exec:exec -Dbench.class=PostgresComparisonBenchmark -Dbench.args="5000000 3"
 * </pre>
 * Arguments: rows (default 5,000,000), rounds (default 3), and optionally which parts to run
 * ({@code copy,select,psql}, the default). PostgreSQL's {@code initdb},
 * {@code pg_ctl} and {@code psql} are looked for in {@code /usr/lib/postgresql/*}{@code /bin}, then
 * on the PATH; run as root, the server runs as the {@code postgres} user (it refuses root).
 */
public final class PostgresComparisonBenchmark {
    private static final String QUERY = "SELECT id, name, v, d FROM bench.rows";
    private static final int FETCH_SIZE = 10_000;
    private static final int LOAD_ROWS = 1_000_000;

    private PostgresComparisonBenchmark() {}

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("child-select")) {
            select(args[1], Integer.parseInt(args[2]));
            System.exit(0); // pgjdbc keeps no threads, but the measurement is printed: nothing to wait for
            return;
        }
        ScanBenchArgs parsed = ScanBenchArgs.parse(args, "copy,select,psql");
        int rows = parsed.rows();
        int rounds = parsed.rounds();
        Path work = Files.createTempDirectory("riffle-vs-postgres");
        try (LocalCluster cluster = LocalCluster.builder().dataDir(work.resolve("riffle")).coordinatorPort(0)
                        .lakeEnabled(false).start();
                PgWireServer riffle = PgWireServer.builder().clientConfig(cluster.clientConfig()).host("127.0.0.1")
                        .port(0).start();
                Postgres postgres = Postgres.start(Files.createTempDirectory("riffle-bench-postgres"))) {
            Server riffleServer = new Server("Riffle", riffle.port(), "riffle", "riffle");
            Server postgresServer = new Server("PostgreSQL", postgres.port, "postgres", "riffle");
            System.out.printf(Locale.ROOT, "PostgreSQL protocol: Riffle (port %d) vs %s (port %d), %,d rows"
                    + " (INT, TEXT, BIGINT, DOUBLE PRECISION)%n", riffle.port(), postgres.version, postgres.port, rows);
            long loadStarted = System.nanoTime();
            load(riffleServer, rows, "CREATE DATABASE bench");
            System.out.printf(Locale.ROOT, "loaded Riffle in %.1f s%n", (System.nanoTime() - loadStarted) / 1e9);
            loadStarted = System.nanoTime();
            load(postgresServer, rows, "CREATE SCHEMA bench");
            try (java.sql.Connection sql = postgresServer.connect(new Properties());
                    Statement statement = sql.createStatement()) {
                statement.execute("VACUUM ANALYZE bench.rows");
            }
            System.out.printf(Locale.ROOT, "loaded PostgreSQL in %.1f s%n", (System.nanoTime() - loadStarted) / 1e9);
            Psql psql = new Psql(postgres.bin.resolve("psql"));
            // Warm both: PostgreSQL's buffers, Riffle's JIT and the tablet server's page cache.
            psql.copy(riffleServer, rows);
            psql.copy(postgresServer, rows);
            List<Double> copyRiffle = new ArrayList<>();
            List<Double> copyPostgres = new ArrayList<>();
            List<Double> selectRiffle = new ArrayList<>();
            List<Double> selectPostgres = new ArrayList<>();
            List<Double> psqlRiffle = new ArrayList<>();
            List<Double> psqlPostgres = new ArrayList<>();
            List<String> parts = parsed.parts();
            for (int round = 1; round <= rounds; round++) {
                StringBuilder ratios = new StringBuilder("round " + round + ":");
                if (parts.contains("copy")) {
                    copyPostgres.add(psql.copy(postgresServer, rows));
                    copyRiffle.add(psql.copy(riffleServer, rows));
                    ratios.append(String.format(Locale.ROOT, " COPY TO STDOUT %.2fx,",
                            copyPostgres.get(round - 1) / copyRiffle.get(round - 1)));
                }
                if (parts.contains("select")) {
                    selectPostgres.add(selectInJvm(postgresServer, rows));
                    selectRiffle.add(selectInJvm(riffleServer, rows));
                    ratios.append(String.format(Locale.ROOT, " pgjdbc SELECT * %.2fx,",
                            selectRiffle.get(round - 1) / selectPostgres.get(round - 1)));
                }
                if (parts.contains("psql")) {
                    psqlPostgres.add(psql.select(postgresServer, rows));
                    psqlRiffle.add(psql.select(riffleServer, rows));
                    ratios.append(String.format(Locale.ROOT, " psql SELECT * %.2fx,",
                            psqlPostgres.get(round - 1) / psqlRiffle.get(round - 1)));
                }
                System.out.println(ratios.substring(0, ratios.length() - 1));
            }
            if (parts.contains("copy")) {
                double copy = Median.of(copyPostgres) / Median.of(copyRiffle);
                System.out.printf(Locale.ROOT, "median COPY TO STDOUT by psql: PostgreSQL %.2f s, Riffle %.2f s:"
                        + " %.2fx (target >= 1.0x): %s%n", Median.of(copyPostgres), Median.of(copyRiffle), copy,
                        copy >= 1.0 ? "met" : "NOT met");
            }
            if (parts.contains("select")) {
                double select = Median.of(selectRiffle) / Median.of(selectPostgres);
                System.out.printf(Locale.ROOT, "median pgjdbc SELECT *: PostgreSQL %.2f M rows/s, Riffle %.2f M"
                        + " rows/s: %.2fx (target >= 1.0x): %s%n", Median.of(selectPostgres) / 1e6,
                        Median.of(selectRiffle) / 1e6, select, select >= 1.0 ? "met" : "NOT met");
            }
            if (parts.contains("psql")) {
                double psqlSelect = Median.of(psqlPostgres) / Median.of(psqlRiffle);
                System.out.printf(Locale.ROOT, "median psql SELECT *: PostgreSQL %.2f s, Riffle %.2f s: %.2fx%n",
                        Median.of(psqlPostgres), Median.of(psqlRiffle), psqlSelect);
            }
        }
    }

    /** Creates {@code bench.rows} and copies the rows in through pgjdbc's CopyManager. */
    private static void load(Server server, int rows, String createSchema) throws Exception {
        try (java.sql.Connection sql = server.connect(new Properties()); Statement statement = sql.createStatement()) {
            statement.execute(createSchema);
            statement.execute("CREATE TABLE bench.rows (id INT, name TEXT, v BIGINT, d DOUBLE PRECISION)");
            // Riffle takes a COPY whole or not at all, up to 64 MB: a million rows (about 35 MB) each
            long copied = 0;
            for (int from = 0; from < rows; from += LOAD_ROWS) {
                copied += sql.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY bench.rows FROM STDIN",
                        new GeneratedRows(from, Math.min(rows, from + LOAD_ROWS)));
            }
            ScanPasses.check(copied, rows);
        }
    }

    private static double selectInJvm(Server server, int rows) throws Exception {
        System.out.print("  " + server.name + " ");
        return ClientJvm.run(PostgresComparisonBenchmark.class, List.of("child-select", server.url(),
                Integer.toString(rows)), "pass ");
    }

    /** The pgjdbc client: reads every value of every row, twice, and reports the second pass. */
    private static void select(String url, int expected) throws Exception {
        long expectedIdSum = (long) expected * (expected - 1) / 2;
        Properties properties = new Properties();
        properties.setProperty("user", "riffle");
        try (java.sql.Connection sql = DriverManager.getConnection(url, properties)) {
            sql.setAutoCommit(false); // pgjdbc fetches a portion at a time only inside a transaction
            for (int pass = 1; pass <= ScanPasses.PASSES; pass++) {
                long started = System.nanoTime();
                long cpu = CpuTime.processNanos();
                long count = 0;
                long idSum = 0;
                long textChars = 0;
                double dSum = 0;
                try (PreparedStatement query = sql.prepareStatement(QUERY)) {
                    query.setFetchSize(FETCH_SIZE);
                    try (ResultSet rs = query.executeQuery()) {
                        while (rs.next()) {
                            int id = rs.getInt(1);
                            textChars += rs.getString(2).length();
                            if (rs.getLong(3) != 7L * id) {
                                throw new IllegalStateException("row " + id + " has v " + rs.getLong(3));
                            }
                            idSum += id;
                            dSum += rs.getDouble(4);
                            count++;
                        }
                    }
                }
                sql.commit();
                ScanPasses.check(count, expected);
                if (idSum != expectedIdSum || textChars == 0 || dSum <= 0) {
                    throw new IllegalStateException("read other values than were written: id sum " + idSum);
                }
                ScanPasses.report(pass, count, started, cpu, "");
            }
        }
    }

    /** One server under test: where it listens and which database holds {@code bench}. */
    private record Server(String name, int port, String database, String user) {
        String url() {
            return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
        }

        java.sql.Connection connect(Properties properties) throws Exception {
            Properties withUser = new Properties();
            withUser.putAll(properties);
            withUser.setProperty("user", user);
            return DriverManager.getConnection(url(), withUser);
        }
    }

    /**
     * The rows, as COPY text generated as they are read: {@code id}, a name of 10 to 14 characters,
     * {@code v = 7 * id}, {@code d} a price with two decimals.
     */
    private static final class GeneratedRows extends InputStream {
        private final int end;
        private int next;
        private byte[] line = new byte[0];
        private int position;

        /** The rows with ids from {@code from} up to {@code end} (excluded). */
        GeneratedRows(int from, int end) {
            this.next = from;
            this.end = end;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) {
            int copied = 0;
            while (copied < length) {
                if (position == line.length) {
                    if (next == end) {
                        break;
                    }
                    int id = next++;
                    line = (id + "\tcustomer-" + (id % 10_007) + "\t" + 7L * id + "\t" + (id % 100_000) / 100.0 + "\n")
                            .getBytes(US_ASCII);
                    position = 0;
                }
                int n = Math.min(length - copied, line.length - position);
                System.arraycopy(line, position, buffer, offset + copied, n);
                position += n;
                copied += n;
            }
            return copied == 0 && length > 0 ? -1 : copied;
        }
    }

    /** psql processes, timed whole: start, connect, run, exit; their output counted, not kept. */
    private record Psql(Path executable) {
        double copy(Server server, int rows) throws Exception {
            return run(server, rows, "COPY (" + QUERY + ") TO STDOUT", "COPY TO STDOUT");
        }

        double select(Server server, int rows) throws Exception {
            return run(server, rows, QUERY, "SELECT *");
        }

        private double run(Server server, int rows, String sql, String what) throws Exception {
            List<String> command = List.of(executable.toString(), "-X", "-A", "-t", "-h", "127.0.0.1", "-p",
                    Integer.toString(server.port), "-U", server.user, "-d", server.database, "-v", "ON_ERROR_STOP=1",
                    "-c", sql);
            long started = System.nanoTime();
            long riffleCpu = CpuTime.processNanos(); // the cluster and Riffle run in this JVM
            Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            long lines = 0;
            long bytes = 0;
            try (InputStream output = process.getInputStream()) {
                byte[] buffer = new byte[1 << 16];
                for (int n; (n = output.read(buffer)) > 0; ) {
                    bytes += n;
                    for (int i = 0; i < n; i++) {
                        if (buffer[i] == '\n') {
                            lines++;
                        }
                    }
                }
            }
            if (process.waitFor() != 0) {
                throw new IllegalStateException("psql failed on " + server.name + ": " + sql);
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            ScanPasses.check(lines, rows);
            System.out.printf(Locale.ROOT, "  %s psql %s: %.2f s (%,d bytes)%s%n", server.name, what, seconds, bytes,
                    server.name.equals("Riffle") ? String.format(Locale.ROOT, ", Riffle JVM CPU %.2f s",
                            (CpuTime.processNanos() - riffleCpu) / 1e9) : "");
            return seconds;
        }
    }

    /** A PostgreSQL server of the benchmark's own: initdb'd into a temporary directory, stopped at the end. */
    private static final class Postgres implements AutoCloseable {
        final Path bin;
        final Path data;
        final int port;
        final String version;
        private final boolean asPostgresUser;

        private Postgres(Path bin, Path data, int port, String version, boolean asPostgresUser) {
            this.bin = bin;
            this.data = data;
            this.port = port;
            this.version = version;
            this.asPostgresUser = asPostgresUser;
        }

        static Postgres start(Path data) throws Exception {
            Path bin = findBin();
            boolean root = "root".equals(System.getProperty("user.name"));
            if (root) {
                exec(List.of("chown", "postgres:postgres", data.toString()), false);
            }
            int port;
            try (ServerSocket socket = new ServerSocket(0)) {
                port = socket.getLocalPort();
            }
            exec(List.of(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", "riffle", "--auth=trust",
                    "-E", "UTF8", "--locale=C"), root);
            String options = "-p " + port + " -c listen_addresses=127.0.0.1 -k " + data;
            exec(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-w", "-l",
                    data.resolve("server.log").toString(), "-o", options, "start"), root);
            String version = exec(List.of(bin.resolve("postgres").toString(), "--version"), false).trim();
            return new Postgres(bin, data, port, version, root);
        }

        private static Path findBin() throws IOException {
            Path debian = Path.of("/usr/lib/postgresql");
            if (Files.isDirectory(debian)) {
                try (Stream<Path> versions = Files.list(debian)) {
                    var newest = versions.map(v -> v.resolve("bin")).filter(b -> Files.isExecutable(b.resolve("pg_ctl")))
                            .max(Path::compareTo);
                    if (newest.isPresent()) {
                        return newest.get();
                    }
                }
            }
            for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "pg_ctl"))) {
                    return Path.of(dir);
                }
            }
            throw new IllegalStateException("No PostgreSQL server found (pg_ctl in /usr/lib/postgresql/*/bin or on"
                    + " the PATH): install Debian's postgresql package");
        }

        private static String exec(List<String> command, boolean asPostgresUser) throws Exception {
            List<String> full = new ArrayList<>();
            if (asPostgresUser) {
                full.addAll(List.of("runuser", "-u", "postgres", "--"));
            }
            full.addAll(command);
            Process process = new ProcessBuilder(full).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), US_ASCII);
            try {
                if (process.waitFor() != 0) {
                    throw new IllegalStateException(String.join(" ", full) + " failed:\n" + output);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted waiting for " + full);
            }
            return output;
        }

        @Override
        public void close() throws Exception {
            exec(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "fast", "-w", "stop"),
                    asPostgresUser);
        }
    }
}
