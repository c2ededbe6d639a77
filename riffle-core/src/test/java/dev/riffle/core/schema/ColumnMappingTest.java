package dev.riffle.core.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.core.types.ArrowTypeMapping;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;

class ColumnMappingTest {
    private static final Schema FIRST = Schema.newBuilder()
            .column("id", DataTypes.INT())
            .column("v", DataTypes.STRING())
            .build();
    /** FIRST with two columns added, as Fluss adds them: ids continue, positions last. */
    private static final Schema THIRD = Schema.newBuilder().fromSchema(FIRST)
            .column("n", DataTypes.BIGINT())
            .column("t", DataTypes.ARRAY(DataTypes.STRING()))
            .build();

    @Test
    void columnsAreMatchedByIdAndAddedOnesAreAbsent() {
        ColumnMapping mapping = ColumnMapping.between(FIRST, THIRD);

        assertThat(mapping.sourceIndexes()).containsExactly(0, 1, -1, -1);
        assertThat(mapping.target()).extracting(f -> f.getName()).containsExactly("id", "v", "n", "t");
        assertThat(mapping.isIdentity(2)).isFalse();
        assertThat(ColumnMapping.between(THIRD, THIRD).isIdentity(4)).isTrue();
    }

    @Test
    void aNewerSchemaMapsDownToTheOlderOneByDroppingItsExtraColumns() {
        assertThat(ColumnMapping.between(THIRD, FIRST).sourceIndexes()).containsExactly(0, 1);
    }

    @Test
    void aColumnWhoseTypeChangedIsRefusedNamingIt() {
        Schema retyped = Schema.newBuilder().column("id", DataTypes.BIGINT()).column("v", DataTypes.STRING()).build();

        assertThatThrownBy(() -> ColumnMapping.between(FIRST, retyped))
                .hasMessageContaining("'id'").hasMessageContaining("INT").hasMessageContaining("BIGINT");
    }

    @Test
    void adaptMovesMatchedVectorsAndFillsAddedColumnsWithNulls() {
        try (BufferAllocator allocator = new RootAllocator()) {
            VectorSchemaRoot old = VectorSchemaRoot.create(ArrowTypeMapping.toArrowSchema(FIRST.getRowType()), allocator);
            IntVector id = (IntVector) old.getVector("id");
            VarCharVector v = (VarCharVector) old.getVector("v");
            old.allocateNew();
            for (int i = 0; i < 3; i++) {
                id.setSafe(i, i + 10);
                v.setSafe(i, ("v" + i).getBytes());
            }
            old.setRowCount(3);

            try (VectorSchemaRoot adapted = ColumnMapping.between(FIRST, THIRD).adapt(old, allocator)) {
                assertThat(adapted.getRowCount()).isEqualTo(3);
                assertThat(adapted.getSchema().getFields()).extracting(f -> f.getName())
                        .containsExactly("id", "v", "n", "t");
                assertThat(adapted.getVector("id")).isSameAs(id);
                assertThat(adapted.getVector("v").getObject(2).toString()).isEqualTo("v2");
                for (int i = 0; i < 3; i++) {
                    assertThat(adapted.getVector("n").isNull(i)).isTrue();
                    assertThat(adapted.getVector("t").isNull(i)).isTrue();
                }
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void adaptClosesTheColumnsItDrops() {
        try (BufferAllocator allocator = new RootAllocator()) {
            VectorSchemaRoot newer = VectorSchemaRoot.create(ArrowTypeMapping.toArrowSchema(THIRD.getRowType()), allocator);
            newer.allocateNew();
            newer.setRowCount(0);
            try (VectorSchemaRoot adapted = ColumnMapping.between(THIRD, FIRST).adapt(newer, allocator)) {
                assertThat(adapted.getFieldVectors()).hasSize(2);
                assertThat(List.of(adapted.getVector(0).getName(), adapted.getVector(1).getName()))
                        .containsExactly("id", "v");
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }
}
