package dev.riffle.lake.tiering;

import static dev.riffle.lake.tiering.TieringServiceIT.LOG;
import static dev.riffle.lake.tiering.TieringServiceIT.createLakeTable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.core.Riffle;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.fluss.client.Connection;
import org.apache.fluss.exception.DatabaseNotExistException;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The tiering status asked for by database, by table, and within a deadline. */
@ExtendWith(LocalClusterExtension.class)
class TieringStatusIT {

    @Test
    void oneDatabaseOneTableAndADeadlineThatPasses(Connection connection, TestNames names) throws Exception {
        TablePath path = names.table("lagging");
        createLakeTable(connection, path, LOG, 1);
        try (BufferAllocator allocator = new RootAllocator(); Riffle riffle = Riffle.using(connection, allocator)) {
            List<TieringStatus.TableLag> database = TieringStatus.of(riffle, Optional.of(path.getDatabaseName()),
                    Instant.now().plusSeconds(60));
            assertThat(database).extracting(TieringStatus.TableLag::table).contains(path)
                    .allSatisfy(table -> assertThat(table.getDatabaseName()).isEqualTo(path.getDatabaseName()));
            assertThat(TieringStatus.of(riffle, riffle.table(path).info()).table()).isEqualTo(path);

            // The work grows with the tables, so a deadline already past stops it before the first one.
            assertThatThrownBy(() -> TieringStatus.of(riffle, Optional.empty(), Instant.now().minusSeconds(1)))
                    .isInstanceOf(TimeoutException.class).hasMessageContaining("0 tables looked at");
            assertThatThrownBy(() -> TieringStatus.of(riffle, Optional.of("no_such_db_" + path.getTableName()),
                    Instant.now().plusSeconds(60)))
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(DatabaseNotExistException.class);
        }
    }
}
