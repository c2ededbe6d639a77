package dev.riffle.sql.dialect;

import org.apache.calcite.sql.validate.SqlConformance;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlDelegatingConformance;

/**
 * What PostgreSQL allows, on Calcite's lenient {@code BABEL} conformance, where the two differ in
 * what a client sees. (That {@code CASE WHEN ... THEN 'TABLE' ELSE 'SYSTEM TABLE' END} is text, not
 * blank-padded, is the type system's: {@code FlussTypeSystem#POSTGRESQL}.)
 */
final class PostgresConformance extends SqlDelegatingConformance {

    static final SqlConformance INSTANCE = new PostgresConformance();

    private PostgresConformance() {
        super(SqlConformanceEnum.BABEL);
    }

    /**
     * A select item's alias is not a name in the same select list or its WHERE clause: an unknown
     * column must be reported as unknown, not resolved to an alias of the same name.
     */
    @Override
    public SelectAliasLookup isSelectAlias() {
        return SelectAliasLookup.UNSUPPORTED;
    }

    /** {@code SELECT id FROM t GROUP BY v} is an error (42803), not any one row's {@code id}. */
    @Override
    public boolean isNonStrictGroupBy() {
        return false;
    }
}
