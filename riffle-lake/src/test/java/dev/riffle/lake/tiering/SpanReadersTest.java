package dev.riffle.lake.tiering;

import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.core.schema.TableSchemas;
import org.apache.fluss.metadata.LogFormat;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;

/** Which reader reads a table's log, decided from its metadata alone: no cluster. */
class SpanReadersTest {
    private static final Schema SCALARS = Schema.newBuilder()
            .column("id", DataTypes.INT()).column("name", DataTypes.STRING()).column("amount", DataTypes.DECIMAL(12, 2))
            .column("at", DataTypes.TIMESTAMP_LTZ(3)).column("day", DataTypes.DATE()).column("raw", DataTypes.BYTES())
            .build();

    @Test
    void arrowLogWithScalarColumnsIsReadAsArrowBatches() {
        TableInfo table = table(SCALARS, LogFormat.ARROW, TableSchemas.FIRST_SCHEMA_ID);

        assertThat(SpanReaders.logReadPath(table)).isEqualTo(SpanReaders.LogReadPath.ARROW_BATCHES);
        assertThat(BucketLogReads.arrowLimitation(table)).isEmpty();
    }

    @Test
    void otherLogFormatsAreReadWithTheFlussLogScanner() {
        TableInfo table = table(SCALARS, LogFormat.INDEXED, TableSchemas.FIRST_SCHEMA_ID);

        assertThat(SpanReaders.logReadPath(table)).isEqualTo(SpanReaders.LogReadPath.SCANNED_ROWS);
        assertThat(BucketLogReads.arrowLimitation(table)).hasValueSatisfying(why -> assertThat(why).contains("INDEXED"));
    }

    @Test
    void nestedColumnsAreReadWithTheFlussLogScanner() {
        for (Schema nested : new Schema[] {
                Schema.newBuilder().column("id", DataTypes.INT()).column("tags", DataTypes.ARRAY(DataTypes.STRING())).build(),
                Schema.newBuilder().column("id", DataTypes.INT())
                        .column("counts", DataTypes.MAP(DataTypes.STRING(), DataTypes.INT())).build(),
                Schema.newBuilder().column("id", DataTypes.INT()).column("address", DataTypes.ROW(
                        DataTypes.FIELD("city", DataTypes.STRING()), DataTypes.FIELD("zip", DataTypes.INT()))).build()}) {
            TableInfo table = table(nested, LogFormat.ARROW, TableSchemas.FIRST_SCHEMA_ID);

            assertThat(SpanReaders.logReadPath(table)).as(nested.toString()).isEqualTo(SpanReaders.LogReadPath.SCANNED_ROWS);
            assertThat(BucketLogReads.arrowLimitation(table)).hasValueSatisfying(why -> assertThat(why)
                    .contains("column '" + nested.getRowType().getFieldNames().get(1) + "'"));
        }
    }

    @Test
    void aTableWhoseSchemaChangedIsStillReadAsArrowBatches() {
        TableInfo table = table(SCALARS, LogFormat.ARROW, TableSchemas.FIRST_SCHEMA_ID + 1);

        assertThat(SpanReaders.logReadPath(table)).isEqualTo(SpanReaders.LogReadPath.ARROW_BATCHES);
        assertThat(BucketLogReads.arrowLimitation(table)).isEmpty();
    }

    private static TableInfo table(Schema schema, LogFormat format, int schemaId) {
        return TableInfo.of(TablePath.of("shop", "events"), 7, schemaId,
                TableDescriptor.builder().schema(schema).distributedBy(1).logFormat(format).build(), 0, 0);
    }
}
