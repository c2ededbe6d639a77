package dev.riffle.lake.source;

import dev.riffle.core.types.ArrowColumnFill;
import dev.riffle.core.types.EpochUnits;
import java.util.Optional;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DecimalType;
import org.apache.fluss.types.LocalZonedTimestampType;
import org.apache.fluss.types.TimestampType;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.data.columnar.BooleanColumnVector;
import org.apache.paimon.data.columnar.ByteColumnVector;
import org.apache.paimon.data.columnar.BytesColumnVector;
import org.apache.paimon.data.columnar.ColumnVector;
import org.apache.paimon.data.columnar.DecimalColumnVector;
import org.apache.paimon.data.columnar.DoubleColumnVector;
import org.apache.paimon.data.columnar.FloatColumnVector;
import org.apache.paimon.data.columnar.IntColumnVector;
import org.apache.paimon.data.columnar.LongColumnVector;
import org.apache.paimon.data.columnar.ShortColumnVector;
import org.apache.paimon.data.columnar.TimestampColumnVector;

/**
 * Copies one column of Paimon's columnar batches into the Arrow vector Riffle's schema gives the
 * column ({@code ArrowTypeMapping}), with the encodings of Fluss's own Arrow batches: a typed loop
 * per batch, strings copied once from Paimon's buffers, no object per row for numbers; numbers,
 * dates, timestamps and strings written as memory ({@code ArrowColumnFill}) after room is made once
 * per batch. Rows a
 * non-columnar Paimon reader hands out are copied one at a time with the same encodings.
 * Flat types only ({@link #supports}); a table with others is read through the lake plugin.
 */
abstract class PaimonColumnCopier {
    private final FieldVector target;
    private final Class<? extends ColumnVector> sourceType;

    PaimonColumnCopier(FieldVector target, Class<? extends ColumnVector> sourceType) {
        this.target = target;
        this.sourceType = sourceType;
    }

    /**
     * Copies {@code rows} values of {@code source} to the target from index {@code at}. A column
     * the file does not have (added to the table after the file was written) is a vector of nulls
     * of no particular type.
     */
    final void copyColumn(ColumnVector source, int rows, int at) {
        if (sourceType.isInstance(source)) {
            copy(source, rows, at);
            return;
        }
        for (int i = 0; i < rows; i++) {
            if (!source.isNullAt(i)) {
                throw new IllegalStateException("Paimon handed a " + source.getClass().getName() + " where a "
                        + sourceType.getSimpleName() + " was expected");
            }
            target.setNull(at + i);
        }
    }

    /** Copies {@code rows} values of {@code source}, a vector of the copier's source type. */
    abstract void copy(ColumnVector source, int rows, int at);

    /** Copies field {@code pos} of {@code row} to index {@code at}. */
    abstract void copy(InternalRow row, int pos, int at);

    /** Whether a column of this Fluss type is copied here. */
    static boolean supports(DataType type) {
        return switch (type.getTypeRoot()) {
            case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, FLOAT, DOUBLE, STRING, BYTES, DECIMAL, DATE,
                    TIME_WITHOUT_TIME_ZONE, TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> true;
            default -> false;
        };
    }

    /** The copier into {@code target}, which holds a column of {@code type}; empty for types not {@link #supports supported}. */
    static Optional<PaimonColumnCopier> of(DataType type, FieldVector target) {
        return Optional.ofNullable(switch (type.getTypeRoot()) {
            case BOOLEAN -> new Booleans((BitVector) target);
            case TINYINT -> new Bytes1((TinyIntVector) target);
            case SMALLINT -> new Shorts((SmallIntVector) target);
            case INTEGER -> new Ints((IntVector) target);
            case DATE -> new Days((DateDayVector) target);
            case TIME_WITHOUT_TIME_ZONE -> new Times(target);
            case BIGINT -> new Longs((BigIntVector) target);
            case FLOAT -> new Floats((Float4Vector) target);
            case DOUBLE -> new Doubles((Float8Vector) target);
            case STRING -> new Strings((VarCharVector) target);
            case BYTES -> new Binaries((VarBinaryVector) target);
            case DECIMAL -> new Decimals((DecimalVector) target, (DecimalType) type);
            case TIMESTAMP_WITHOUT_TIME_ZONE -> new Timestamps((TimeStampVector) target,
                    ((TimestampType) type).getPrecision());
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> new Timestamps((TimeStampVector) target,
                    ((LocalZonedTimestampType) type).getPrecision());
            default -> null;
        });
    }

    private static final class Booleans extends PaimonColumnCopier {
        private final BitVector target;

        Booleans(BitVector target) {
            super(target, BooleanColumnVector.class);
            this.target = target;
        }

        @Override
        void copy(ColumnVector source, int rows, int at) {
            BooleanColumnVector values = (BooleanColumnVector) source;
            for (int i = 0; i < rows; i++) {
                if (values.isNullAt(i)) {
                    target.setNull(at + i);
                } else {
                    target.setSafe(at + i, values.getBoolean(i) ? 1 : 0);
                }
            }
        }

        @Override
        void copy(InternalRow row, int pos, int at) {
            if (row.isNullAt(pos)) {
                target.setNull(at);
            } else {
                target.setSafe(at, row.getBoolean(pos) ? 1 : 0);
            }
        }
    }

    private static final class Bytes1 extends PaimonColumnCopier {
        private final TinyIntVector target;

        Bytes1(TinyIntVector target) {
            super(target, ByteColumnVector.class);
            this.target = target;
        }

        @Override
        void copy(ColumnVector source, int rows, int at) {
            ByteColumnVector values = (ByteColumnVector) source;
            ArrowColumnFill fill = ArrowColumnFill.of(target, at, at + rows);
            for (int i = 0; i < rows; i++) {
                if (values.isNullAt(i)) {
                    fill.setNull(at + i);
                } else {
                    fill.setByte(at + i, values.getByte(i));
                }
            }
            fill.finish();
        }

        @Override
        void copy(InternalRow row, int pos, int at) {
            if (row.isNullAt(pos)) {
                target.setNull(at);
            } else {
                target.setSafe(at, row.getByte(pos));
            }
        }
    }

    private static final class Shorts extends PaimonColumnCopier {
        private final SmallIntVector target;

        Shorts(SmallIntVector target) {
            super(target, ShortColumnVector.class);
            this.target = target;
        }

        @Override
        void copy(ColumnVector source, int rows, int at) {
            ShortColumnVector values = (ShortColumnVector) source;
            ArrowColumnFill fill = ArrowColumnFill.of(target, at, at + rows);
            for (int i = 0; i < rows; i++) {
                if (values.isNullAt(i)) {
                    fill.setNull(at + i);
                } else {
                    fill.setShort(at + i, values.getShort(i));
                }
            }
            fill.finish();
        }

        @Override
        void copy(InternalRow row, int pos, int at) {
            if (row.isNullAt(pos)) {
                target.setNull(at);
            } else {
                target.setSafe(at, row.getShort(pos));
            }
        }
    }

    private static final class Ints extends PaimonColumnCopier {
        private final IntVector target;

        Ints(IntVector target) {
            super(target, IntColumnVector.class);
            this.target = target;
        }

        @Override
        void copy(ColumnVector source, int rows, int at) {
            IntColumnVector values = (IntColumnVector) source;
            ArrowColumnFill fill = ArrowColumnFill.of(target, at, at + rows);
            for (int i = 0; i < rows; i++) {
                if (values.isNullAt(i)) {
                    fill.setNull(at + i);
                } else {
                    fill.setInt(at + i, values.getInt(i));
                }
            }
            fill.finish();
        }

        @Override
        void copy(InternalRow row, int pos, int at) {
            if (row.isNullAt(pos)) {
                target.setNull(at);
            } else {
                target.setSafe(at, row.getInt(pos));
            }
        }
    }

    private static final class Days extends PaimonColumnCopier {
        private final DateDayVector target;

        Days(DateDayVector target) {
            super(target, IntColumnVector.class);
            this.target = target;
        }

        @Override
        void copy(ColumnVector source, int rows, int at) {
            IntColumnVector values = (IntColumnVector) source;
            ArrowColumnFill fill = ArrowColumnFill.of(target, at, at + rows);
            for (int i = 0; i < rows; i++) {
                if (values.isNullAt(i)) {
                    fill.setNull(at + i);
                } else {
                    fill.setInt(at + i, values.getInt(i));
                }
            }
            fill.finish();
        }

        @Override
        void copy(InternalRow row, int pos, int at) {
            if (row.isNullAt(pos)) {
                target.setNull(at);
            } else {
                target.setSafe(at, row.getInt(pos));
            }
        }
    }

    /** TIME: Paimon, like Fluss, keeps int milliseconds of the day; the Arrow unit follows the precision. */
    private static final class Times extends PaimonColumnCopier {
        private final FieldVector target;
        private final long perMilli;
        private final boolean seconds;

        Times(FieldVector target) {
            super(target, IntColumnVector.class);
            this.target = target;
            ArrowType.Time time = (ArrowType.Time) target.getField().getType();
            this.seconds = time.getUnit() == org.apache.arrow.vector.types.TimeUnit.SECOND;
            this.perMilli = switch (time.getUnit()) {
                case MICROSECOND -> 1_000L;
                case NANOSECOND -> 1_000_000L;
                default -> 1L;
            };
        }

        private void set(int index, int millis) {
            if (seconds) {
                ((TimeSecVector) target).setSafe(index, millis / 1_000);
            } else if (target instanceof TimeMilliVector ms) {
                ms.setSafe(index, millis);
            } else if (target instanceof TimeMicroVector us) {
                us.setSafe(index, millis * perMilli);
            } else {
                ((TimeNanoVector) target).setSafe(index, millis * perMilli);
            }
        }

        @Override
        void copy(ColumnVector source, int rows, int at) {
            IntColumnVector values = (IntColumnVector) source;
            for (int i = 0; i < rows; i++) {
                if (values.isNullAt(i)) {
                    target.setNull(at + i);
                } else {
                    set(at + i, values.getInt(i));
                }
            }
        }

        @Override
        void copy(InternalRow row, int pos, int at) {
            if (row.isNullAt(pos)) {
                target.setNull(at);
            } else {
                set(at, row.getInt(pos));
            }
        }
    }

    private static final class Longs extends PaimonColumnCopier {
        private final BigIntVector target;

        Longs(BigIntVector target) {
            super(target, LongColumnVector.class);
            this.target = target;
        }

        @Override
        void copy(ColumnVector source, int rows, int at) {
            LongColumnVector values = (LongColumnVector) source;
            ArrowColumnFill fill = ArrowColumnFill.of(target, at, at + rows);
            for (int i = 0; i < rows; i++) {
                if (values.isNullAt(i)) {
                    fill.setNull(at + i);
                } else {
                    fill.setLong(at + i, values.getLong(i));
                }
            }
            fill.finish();
        }

        @Override
        void copy(InternalRow row, int pos, int at) {
            if (row.isNullAt(pos)) {
                target.setNull(at);
            } else {
                target.setSafe(at, row.getLong(pos));
            }
        }
    }

    private static final class Floats extends PaimonColumnCopier {
        private final Float4Vector target;

        Floats(Float4Vector target) {
            super(target, FloatColumnVector.class);
            this.target = target;
        }

        @Override
        void copy(ColumnVector source, int rows, int at) {
            FloatColumnVector values = (FloatColumnVector) source;
            ArrowColumnFill fill = ArrowColumnFill.of(target, at, at + rows);
            for (int i = 0; i < rows; i++) {
                if (values.isNullAt(i)) {
                    fill.setNull(at + i);
                } else {
                    fill.setFloat(at + i, values.getFloat(i));
                }
            }
            fill.finish();
        }

        @Override
        void copy(InternalRow row, int pos, int at) {
            if (row.isNullAt(pos)) {
                target.setNull(at);
            } else {
                target.setSafe(at, row.getFloat(pos));
            }
        }
    }

    private static final class Doubles extends PaimonColumnCopier {
        private final Float8Vector target;

        Doubles(Float8Vector target) {
            super(target, DoubleColumnVector.class);
            this.target = target;
        }

        @Override
        void copy(ColumnVector source, int rows, int at) {
            DoubleColumnVector values = (DoubleColumnVector) source;
            ArrowColumnFill fill = ArrowColumnFill.of(target, at, at + rows);
            for (int i = 0; i < rows; i++) {
                if (values.isNullAt(i)) {
                    fill.setNull(at + i);
                } else {
                    fill.setDouble(at + i, values.getDouble(i));
                }
            }
            fill.finish();
        }

        @Override
        void copy(InternalRow row, int pos, int at) {
            if (row.isNullAt(pos)) {
                target.setNull(at);
            } else {
                target.setSafe(at, row.getDouble(pos));
            }
        }
    }

    private static final class Strings extends PaimonColumnCopier {
        private final VarCharVector target;

        Strings(VarCharVector target) {
            super(target, BytesColumnVector.class);
            this.target = target;
        }

        @Override
        void copy(ColumnVector source, int rows, int at) {
            BytesColumnVector values = (BytesColumnVector) source;
            ArrowColumnFill fill = ArrowColumnFill.of(target, at, at + rows);
            for (int i = 0; i < rows; i++) {
                if (values.isNullAt(i)) {
                    fill.setNull(at + i);
                } else {
                    BytesColumnVector.Bytes bytes = values.getBytes(i);
                    fill.setBytes(at + i, bytes.data, bytes.offset, bytes.len);
                }
            }
            fill.finish();
        }

        @Override
        void copy(InternalRow row, int pos, int at) {
            if (row.isNullAt(pos)) {
                target.setNull(at);
            } else {
                target.setSafe(at, row.getString(pos).toBytes());
            }
        }
    }

    private static final class Binaries extends PaimonColumnCopier {
        private final VarBinaryVector target;

        Binaries(VarBinaryVector target) {
            super(target, BytesColumnVector.class);
            this.target = target;
        }

        @Override
        void copy(ColumnVector source, int rows, int at) {
            BytesColumnVector values = (BytesColumnVector) source;
            ArrowColumnFill fill = ArrowColumnFill.of(target, at, at + rows);
            for (int i = 0; i < rows; i++) {
                if (values.isNullAt(i)) {
                    fill.setNull(at + i);
                } else {
                    BytesColumnVector.Bytes bytes = values.getBytes(i);
                    fill.setBytes(at + i, bytes.data, bytes.offset, bytes.len);
                }
            }
            fill.finish();
        }

        @Override
        void copy(InternalRow row, int pos, int at) {
            if (row.isNullAt(pos)) {
                target.setNull(at);
            } else {
                target.setSafe(at, row.getBinary(pos));
            }
        }
    }

    /** Up to 18 digits by the unscaled long (no object per value), wider ones as BigDecimal. */
    private static final class Decimals extends PaimonColumnCopier {
        private final DecimalVector target;
        private final int precision;
        private final int scale;

        Decimals(DecimalVector target, DecimalType type) {
            super(target, DecimalColumnVector.class);
            this.target = target;
            this.precision = type.getPrecision();
            this.scale = type.getScale();
        }

        private void set(int index, Decimal value) {
            if (value.isCompact()) {
                target.setSafe(index, value.toUnscaledLong());
            } else {
                target.setSafe(index, value.toBigDecimal());
            }
        }

        @Override
        void copy(ColumnVector source, int rows, int at) {
            DecimalColumnVector values = (DecimalColumnVector) source;
            for (int i = 0; i < rows; i++) {
                if (values.isNullAt(i)) {
                    target.setNull(at + i);
                } else {
                    set(at + i, values.getDecimal(i, precision, scale));
                }
            }
        }

        @Override
        void copy(InternalRow row, int pos, int at) {
            if (row.isNullAt(pos)) {
                target.setNull(at);
            } else {
                set(at, row.getDecimal(pos, precision, scale));
            }
        }
    }

    /** TIMESTAMP and TIMESTAMP_LTZ: the count of the Arrow field's unit since the epoch, as Fluss's writer counts it. */
    private static final class Timestamps extends PaimonColumnCopier {
        private final TimeStampVector target;
        private final int precision;
        private final EpochUnits unit;

        Timestamps(TimeStampVector target, int precision) {
            super(target, TimestampColumnVector.class);
            this.target = target;
            this.precision = precision;
            this.unit = EpochUnits.of(((ArrowType.Timestamp) target.getField().getType()).getUnit());
        }

        @Override
        void copy(ColumnVector source, int rows, int at) {
            TimestampColumnVector values = (TimestampColumnVector) source;
            ArrowColumnFill fill = ArrowColumnFill.of(target, at, at + rows);
            for (int i = 0; i < rows; i++) {
                if (values.isNullAt(i)) {
                    fill.setNull(at + i);
                } else {
                    Timestamp value = values.getTimestamp(i, precision);
                    fill.setLong(at + i, unit.count(value.getMillisecond(), value.getNanoOfMillisecond()));
                }
            }
            fill.finish();
        }

        @Override
        void copy(InternalRow row, int pos, int at) {
            if (row.isNullAt(pos)) {
                target.setNull(at);
            } else {
                Timestamp value = row.getTimestamp(pos, precision);
                target.setSafe(at, unit.count(value.getMillisecond(), value.getNanoOfMillisecond()));
            }
        }
    }
}
