package dev.riffle.mcp.tool;

import java.util.List;
import org.apache.fluss.metadata.TableInfo;

/** The few facts about a table that several tools print the same way. */
final class TableFacts {
    private TableFacts() {}

    /** {@code primary-key table}, {@code log table}, ... with {@code partitioned} when it is. */
    static String kind(TableInfo info) {
        return (info.hasPrimaryKey() ? "primary-key" : "log") + (info.isPartitioned() ? " partitioned" : "");
    }

    static boolean datalake(TableInfo info) {
        return info.getTableConfig().isDataLakeEnabled();
    }

    static String names(List<String> names) {
        return names.isEmpty() ? "-" : String.join(", ", names);
    }
}
