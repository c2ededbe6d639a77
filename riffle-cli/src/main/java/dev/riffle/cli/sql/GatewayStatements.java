package dev.riffle.cli.sql;

import static java.util.Objects.requireNonNull;

import dev.riffle.cli.process.ClassArchiveRun;
import dev.riffle.cli.running.GatewayClient;
import dev.riffle.sql.ddl.DdlParser;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.arrow.memory.BufferAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Statements answered by a running gateway that serves the command's cluster ({@code POST /v1/sql},
 * rows as Arrow): no Fluss client and no SQL planner start in the command's JVM. A gateway that
 * cannot be reached when the first statement is sent (it stopped without removing its record) is
 * passed over: that statement and the rest run on the command's own connection instead. Once a
 * statement was answered, a failure is the statement's.
 */
final class GatewayStatements implements StatementTarget {
    private static final Logger LOG = LoggerFactory.getLogger(GatewayStatements.class);

    private final GatewayClient gateway;
    private final BufferAllocator allocator;
    private final DirectConnection direct;
    private boolean answered;
    private Optional<JdbcStatements> instead = Optional.empty();
    private Optional<JdbcStatements> rehearsal = Optional.empty();

    /** Opens the command's own connection, when it needs one. */
    interface DirectConnection {
        JdbcStatements open() throws Exception;
    }

    GatewayStatements(GatewayClient gateway, BufferAllocator allocator, DirectConnection direct) {
        this.gateway = requireNonNull(gateway, "gateway is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.direct = requireNonNull(direct, "direct is null");
    }

    @Override
    public Outcome run(String sql) throws Exception {
        if (instead.isPresent()) {
            return instead.get().run(sql);
        }
        GatewayClient.SqlAnswer answer;
        try {
            answer = gateway.sql(sql, allocator);
        } catch (GatewayClient.Unreachable e) {
            if (answered) {
                throw e;
            }
            LOG.debug("{}; running on this command's own connection", e.getMessage());
            instead = Optional.of(direct.open());
            return instead.get().run(sql);
        }
        answered = true;
        if (ClassArchiveRun.active()) {
            rehearse(sql);
        }
        if (answer instanceof GatewayClient.SqlAnswer.Rows rows) {
            return new Outcome.Rows(rows.reader());
        }
        // The gateway counts no rows for DDL; the command says "OK" for it, as its own connection does.
        return new Outcome.Changed(isDdl(sql) ? OptionalLong.empty()
                : OptionalLong.of(((GatewayClient.SqlAnswer.Updated) answer).count()));
    }

    private static boolean isDdl(String sql) {
        try {
            return DdlParser.parse(sql).isPresent();
        } catch (RuntimeException e) {
            return false; // the gateway ran it, so it was no malformed DDL
        }
    }

    /** Plans the statement on the command's own connection too, running nothing: see {@link ClassArchiveRun}. */
    private void rehearse(String sql) {
        try {
            if (rehearsal.isEmpty()) {
                rehearsal = Optional.of(direct.open());
            }
            rehearsal.get().prepareOnly(sql);
        } catch (Exception e) {
            LOG.debug("Planning {} for the class archive failed", sql, e);
        }
    }

    @Override
    public void close() {
        instead.ifPresent(JdbcStatements::close);
        rehearsal.ifPresent(JdbcStatements::close);
    }
}
