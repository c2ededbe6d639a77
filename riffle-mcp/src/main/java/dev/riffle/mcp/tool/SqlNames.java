package dev.riffle.mcp.tool;

import org.apache.fluss.metadata.TablePath;

/**
 * Names as the SQL tools write them into statements they build: always quoted, so a name is taken
 * as it is spelled and never read as SQL.
 *
 * <pre>{@code
 * SqlNames.table(TablePath.of("shop", "orders"))   // "shop"."orders"
 * }</pre>
 */
final class SqlNames {
    private SqlNames() {}

    static String table(TablePath path) {
        return identifier(path.getDatabaseName()) + "." + identifier(path.getTableName());
    }

    static String identifier(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }
}
