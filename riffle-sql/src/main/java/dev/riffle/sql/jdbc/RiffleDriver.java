package dev.riffle.sql.jdbc;

import dev.riffle.sql.catalog.FlussRootSchema;
import dev.riffle.sql.dialect.Dialect;
import dev.riffle.sql.exec.FlussSession;
import dev.riffle.sql.parser.FlussParserFactory;
import dev.riffle.sql.parser.PostgresParserFactory;
import dev.riffle.sql.planner.FlussScan;
import dev.riffle.sql.statement.StatementLimits;
import dev.riffle.sql.types.FlussTypeSystem;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.DriverVersion;
import org.apache.calcite.avatica.Handler;
import org.apache.calcite.jdbc.CalciteFactory;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.jdbc.Driver;

/**
 * The JDBC driver for {@code jdbc:riffle://HOST:PORT} (the Fluss bootstrap address), registered
 * through {@code META-INF/services/java.sql.Driver}.
 *
 * <pre>{@code
 * try (Connection c = DriverManager.getConnection("jdbc:riffle://127.0.0.1:9123");
 *         ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM shop.orders")) { ... }
 * }</pre>
 *
 * <p>A Calcite connection whose root schema is the cluster's databases ({@link FlussRootSchema}).
 * Identifiers are case-sensitive and unquoted ones keep their case (Fluss names are); quote with
 * double quotes. Options follow the address ({@code jdbc:riffle://h:p;schema=shop}) or come as
 * properties: Calcite's connection properties, and Fluss client settings prefixed {@code fluss.}
 * (e.g. {@code fluss.client.lookup.batch-timeout=5ms}). {@code vectorized=false} leaves every
 * aggregate to Calcite's row-at-a-time operators instead of computing those over a scan on its
 * Arrow batches (for comparing the two; the answers are the same).
 */
public final class RiffleDriver extends Driver {
    public static final String PREFIX = "jdbc:riffle:";
    private static final String FLUSS_PREFIX = "fluss.";
    /** What an embedded connection's URL says (Calcite wants one; it names no cluster, the session is given). */
    private static final String EMBEDDED_URL = PREFIX + "//embedded";
    /** The driver property that turns vectorized aggregation off ({@code true} by default). */
    public static final String VECTORIZED = "vectorized";

    /** Each open connection's session, and whether the connection owns it (closes it when it closes). */
    private final Map<AvaticaConnection, Held> sessions = new ConcurrentHashMap<>();

    private record Held(FlussSession session, boolean owned) {}

    /** A URL taken apart: the bootstrap address, Calcite's properties, the Fluss client settings, the limits. */
    private record Parsed(String address, Properties calcite, Map<String, String> fluss, StatementLimits limits,
            boolean vectorized, Dialect dialect) {}

    static {
        new RiffleDriver().register();
    }

    public RiffleDriver() {
        super(RifflePrepare::new);
    }

    @Override
    protected String getConnectStringPrefix() {
        return PREFIX;
    }

    @Override
    protected String getFactoryClassName(JdbcVersion jdbcVersion) {
        return RiffleJdbcFactory.class.getName();
    }

    @Override
    protected DriverVersion createDriverVersion() {
        return new DriverVersion("Riffle JDBC Driver", "0.1.0", "Riffle", "0.1.0", true, 0, 1, 0, 1);
    }

    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            return null;
        }
        Parsed parsed = parse(url, info);
        FlussSession session;
        try {
            session = FlussSession.connect(parsed.address(), parsed.fluss(), parsed.limits());
        } catch (RuntimeException e) {
            throw new SQLException("Cannot connect to Fluss at " + parsed.address() + ": " + e.getMessage(), e);
        }
        try {
            return connect(url, parsed, session, true);
        } catch (SQLException | RuntimeException e) {
            closeQuietly(session);
            throw e;
        }
    }

    /**
     * The session a connection to {@code url} would open, for {@link #connect(String, Properties,
     * FlussSession)}: servers open one and pool many connections over it, so that every
     * connection shares its Fluss connection, table handles and lookupers (point queries of all
     * of them are batched together). The caller closes it after the last of those connections.
     */
    public FlussSession openSession(String url, Properties info) throws SQLException {
        Parsed parsed = parse(url, info);
        try {
            return FlussSession.connect(parsed.address(), parsed.fluss(), parsed.limits());
        } catch (RuntimeException e) {
            throw new SQLException("Cannot connect to Fluss at " + parsed.address() + ": " + e.getMessage(), e);
        }
    }

    /**
     * As {@link #openSession(String, Properties)}, over {@code riffle}'s Fluss connection instead of
     * a new one (which stays the caller's: closing the session does not close it). A server opens
     * its SQL connections so, over the one Fluss connection of a principal's session.
     */
    public FlussSession openSession(String url, Properties info, dev.riffle.core.Riffle riffle) throws SQLException {
        return FlussSession.using(java.util.Objects.requireNonNull(riffle, "riffle is null"), parse(url, info).limits());
    }

    /**
     * A connection to {@code url} over {@code session}, which stays open when the connection
     * closes. For example, a pool of connections sharing one Fluss connection:
     *
     * <pre>{@code
     * RiffleDriver driver = new RiffleDriver();
     * try (FlussSession session = driver.openSession(url, properties);
     *         Connection a = driver.connect(url, properties, session);
     *         Connection b = driver.connect(url, properties, session)) { ... }
     * }</pre>
     */
    public Connection connect(String url, Properties info, FlussSession session) throws SQLException {
        if (!acceptsURL(url)) {
            throw new SQLException("Not a Riffle URL (jdbc:riffle://HOST:PORT): " + url);
        }
        return connect(url, parse(url, info), java.util.Objects.requireNonNull(session, "session is null"), false);
    }

    /**
     * A connection speaking {@code dialect} over {@code session} (which stays open when the
     * connection closes), with no URL: how the embedded engine ({@code dev.riffle.sql.engine.SqlEngine})
     * opens its connections. The statements' limits are the session's.
     */
    public Connection connect(FlussSession session, Dialect dialect) throws SQLException {
        java.util.Objects.requireNonNull(session, "session is null");
        Properties properties = new Properties();
        properties.setProperty(Dialect.PROPERTY, dialect.name().toLowerCase(java.util.Locale.ROOT));
        session.limits().toProperties().forEach(properties::put);
        return connect(EMBEDDED_URL, parse(EMBEDDED_URL, properties), session, false);
    }

    private Connection connect(String url, Parsed parsed, FlussSession session, boolean owned) throws SQLException {
        CalciteSchema root = CalciteSchema.createRootSchema(true, false, "", new FlussRootSchema(session, parsed.vectorized(),
                parsed.dialect(), FlussScan.TABLES));
        AvaticaConnection connection = ((CalciteFactory) factory).newConnection(this, factory, url, parsed.calcite(),
                root, null);
        sessions.put(connection, new Held(session, owned));
        try {
            handler.onConnectionInit(connection);
        } catch (SQLException | RuntimeException e) {
            sessions.remove(connection);
            throw e;
        }
        return connection;
    }

    private static Parsed parse(String url, Properties info) throws SQLException {
        String rest = url.substring(PREFIX.length());
        if (!rest.startsWith("//")) {
            throw new SQLException("A Riffle URL is jdbc:riffle://HOST:PORT (the Fluss bootstrap address), got " + url);
        }
        rest = rest.substring(2);
        int options = rest.indexOf(';');
        String address = options < 0 ? rest : rest.substring(0, options);
        if (address.isBlank()) {
            throw new SQLException("The Riffle URL " + url + " names no HOST:PORT");
        }
        Properties given = new Properties();
        if (info != null) {
            given.putAll(info);
        }
        if (options >= 0) {
            for (String option : rest.substring(options + 1).split(";")) {
                int eq = option.indexOf('=');
                if (eq > 0) {
                    given.setProperty(option.substring(0, eq).trim(), option.substring(eq + 1).trim());
                }
            }
        }
        Object named = given.remove(Dialect.PROPERTY);
        Dialect dialect;
        try {
            dialect = named == null ? Dialect.CALCITE : Dialect.of(named.toString());
        } catch (IllegalArgumentException e) {
            throw new SQLException(e.getMessage(), e);
        }
        Properties properties = calciteProperties(dialect);
        properties.putAll(given);
        Map<String, String> fluss = new HashMap<>();
        for (String name : properties.stringPropertyNames()) {
            if (name.startsWith(FLUSS_PREFIX)) {
                fluss.put(name.substring(FLUSS_PREFIX.length()), properties.getProperty(name));
                properties.remove(name);
            }
        }
        StatementLimits limits;
        try {
            limits = StatementLimits.take(properties);
        } catch (IllegalArgumentException e) {
            throw new SQLException(e.getMessage(), e);
        }
        Object vectorized = properties.remove(VECTORIZED);
        if (vectorized != null && !vectorized.toString().equalsIgnoreCase("true")
                && !vectorized.toString().equalsIgnoreCase("false")) {
            throw new SQLException(VECTORIZED + " must be true or false, got " + vectorized);
        }
        return new Parsed(address, properties, fluss, limits, vectorized == null
                || vectorized.toString().equalsIgnoreCase("true"), dialect);
    }

    @Override
    protected Handler createHandler() {
        Handler calcite = super.createHandler();
        return new Handler() {
            @Override
            public void onConnectionInit(AvaticaConnection connection) throws SQLException {
                calcite.onConnectionInit(connection);
                // Calcite applies the schema property only to model-based connections
                String schema = ((org.apache.calcite.jdbc.CalciteConnection) connection).config().schema();
                if (schema != null) {
                    Held held = sessions.get(connection);
                    if (held != null && !held.session().databases().contains(schema)) {
                        throw new SQLException("The URL names schema " + schema + ", which is not a Fluss database;"
                                + " databases: " + new java.util.TreeSet<>(held.session().databases()));
                    }
                    connection.setSchema(schema);
                }
            }

            @Override
            public void onConnectionClose(AvaticaConnection connection) {
                calcite.onConnectionClose(connection);
                Held held = sessions.remove(connection);
                if (held != null && held.owned()) {
                    closeQuietly(held.session());
                }
            }

            @Override
            public void onStatementExecute(org.apache.calcite.avatica.AvaticaStatement statement, ResultSink resultSink) {
                calcite.onStatementExecute(statement, resultSink);
            }

            @Override
            public void onStatementClose(org.apache.calcite.avatica.AvaticaStatement statement) {
                calcite.onStatementClose(statement);
            }
        };
    }

    private static void closeQuietly(FlussSession session) {
        try {
            session.close();
        } catch (Exception ignored) {
            // the connection is going away either way
        }
    }

    /** Calcite's connection properties for {@code dialect}, before the user's own. */
    private static Properties calciteProperties(Dialect dialect) {
        Properties properties = new Properties();
        properties.setProperty("quoting", "DOUBLE_QUOTE");
        properties.setProperty("quotedCasing", "UNCHANGED");
        properties.setProperty("unquotedCasing", "UNCHANGED");
        if (dialect == Dialect.CALCITE) {
            properties.setProperty("caseSensitive", "true");
            properties.setProperty("parserFactory", FlussParserFactory.class.getName() + "#FACTORY");
        } else {
            // PostgreSQL folds unquoted names to lower case; Fluss keeps the case names were made
            // with, so the schemas then find a database or table that differs only in case.
            properties.setProperty("caseSensitive", "true");
            properties.setProperty("unquotedCasing", "TO_LOWER");
            properties.setProperty("parserFactory", PostgresParserFactory.class.getName() + "#FACTORY");
            properties.setProperty("conformance", "BABEL");
            properties.setProperty("fun", "standard,postgresql");
        }
        // timestamps with Fluss's nine fractional digits, not Calcite's three
        properties.setProperty("typeSystem", FlussTypeSystem.class.getName()
                + (dialect == Dialect.POSTGRESQL ? "#POSTGRESQL" : "#INSTANCE"));
        return properties;
    }
}
