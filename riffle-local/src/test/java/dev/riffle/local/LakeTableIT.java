package dev.riffle.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.util.stream.Collectors;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.types.DataTypes;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.options.Options;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataField;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A datalake-enabled table gets its Paimon table in the cluster's warehouse. */
@ExtendWith(LocalClusterExtension.class)
class LakeTableIT {

    @Test
    void datalakeEnabledTableAppearsInThePaimonWarehouse(LocalCluster cluster, Connection connection, TestNames names)
            throws Exception {
        TablePath path = names.table("orders");
        Schema schema = Schema.newBuilder()
                .column("id", DataTypes.BIGINT()).column("amount", DataTypes.DOUBLE()).primaryKey("id").build();
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(path, TableDescriptor.builder().schema(schema).distributedBy(2, "id")
                    .property("table.datalake.enabled", "true").build(), false).get();
        }

        try (Catalog catalog = CatalogFactory.createCatalog(
                CatalogContext.create(Options.fromMap(cluster.lakeCatalogOptions())))) {
            Table table = catalog.getTable(Identifier.create(path.getDatabaseName(), path.getTableName()));
            assertThat(table.rowType().getFields().stream().map(DataField::name).collect(Collectors.toList()))
                    .containsExactly("id", "amount", "__bucket", "__offset", "__timestamp");
            assertThat(table.primaryKeys()).containsExactly("id");
            assertThat(table.options()).containsEntry("bucket", "2");
        }
    }
}
