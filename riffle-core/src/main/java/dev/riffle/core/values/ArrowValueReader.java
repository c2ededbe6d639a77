package dev.riffle.core.values;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.riffle.core.types.EpochUnits;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Reads the cells of one Arrow vector into a {@link ValueSink}: one reader per vector type, chosen
 * once per vector (the mirror of {@code RowArrowWriter}'s per-type writers), so no cell is
 * dispatched by type again. The vectors are those Riffle's reads produce
 * ({@code ArrowTypeMapping.toArrowSchema}), plus the large string and binary vectors clients send;
 * a timestamp vector with a time zone is an instant (TIMESTAMP_LTZ), one without a local
 * date-time.
 *
 * <pre>{@code
 * ArrowValueReader amount = ArrowValueReader.of(batch.getVector("amount"));
 * for (int row = 0; row < batch.getRowCount(); row++) {
 *     amount.read(row, sink);
 * }
 * }</pre>
 *
 * <p>A reader is bound to its vector: make new readers for the next batch.
 */
public abstract class ArrowValueReader {
    private final FieldVector vector;

    private ArrowValueReader(FieldVector vector) {
        this.vector = vector;
    }

    /**
     * The reader of {@code vector}'s cells.
     *
     * @throws IllegalArgumentException for a vector type Riffle's reads never produce
     */
    public static ArrowValueReader of(FieldVector vector) {
        if (vector instanceof BitVector v) {
            return new Reader(v) {
                @Override
                void value(int row, ValueSink sink) {
                    sink.booleanValue(v.get(row) != 0);
                }
            };
        } else if (vector instanceof TinyIntVector v) {
            return new Reader(v) {
                @Override
                void value(int row, ValueSink sink) {
                    sink.integerValue(v.get(row));
                }
            };
        } else if (vector instanceof SmallIntVector v) {
            return new Reader(v) {
                @Override
                void value(int row, ValueSink sink) {
                    sink.integerValue(v.get(row));
                }
            };
        } else if (vector instanceof IntVector v) {
            return new Reader(v) {
                @Override
                void value(int row, ValueSink sink) {
                    sink.integerValue(v.get(row));
                }
            };
        } else if (vector instanceof BigIntVector v) {
            return new Reader(v) {
                @Override
                void value(int row, ValueSink sink) {
                    sink.integerValue(v.get(row));
                }
            };
        } else if (vector instanceof Float4Vector v) {
            return new Reader(v) {
                @Override
                void value(int row, ValueSink sink) {
                    sink.floatValue(v.get(row));
                }
            };
        } else if (vector instanceof Float8Vector v) {
            return new Reader(v) {
                @Override
                void value(int row, ValueSink sink) {
                    sink.doubleValue(v.get(row));
                }
            };
        } else if (vector instanceof DecimalVector v) {
            return new Reader(v) {
                @Override
                void value(int row, ValueSink sink) {
                    sink.decimalValue(v.getObject(row));
                }
            };
        } else if (vector instanceof VarCharVector v) {
            return new Reader(v) {
                @Override
                void value(int row, ValueSink sink) {
                    sink.stringValue(new String(v.get(row), UTF_8));
                }
            };
        } else if (vector instanceof LargeVarCharVector v) {
            return new Reader(v) {
                @Override
                void value(int row, ValueSink sink) {
                    sink.stringValue(new String(v.get(row), UTF_8));
                }
            };
        } else if (vector instanceof LargeVarBinaryVector v) {
            return new Reader(v) {
                @Override
                void value(int row, ValueSink sink) {
                    sink.binaryValue(v.get(row));
                }
            };
        } else if (vector instanceof VarBinaryVector v) {
            return new Reader(v) {
                @Override
                void value(int row, ValueSink sink) {
                    sink.binaryValue(v.get(row));
                }
            };
        } else if (vector instanceof FixedSizeBinaryVector v) {
            return new Reader(v) {
                @Override
                void value(int row, ValueSink sink) {
                    sink.binaryValue(v.get(row));
                }
            };
        } else if (vector instanceof DateDayVector v) {
            return new Reader(v) {
                @Override
                void value(int row, ValueSink sink) {
                    sink.dateValue(v.get(row));
                }
            };
        } else if (vector instanceof TimeSecVector v) {
            return new Reader(v) {
                @Override
                void value(int row, ValueSink sink) {
                    sink.timeValue(v.get(row) * 1_000_000_000L);
                }
            };
        } else if (vector instanceof TimeMilliVector v) {
            return new Reader(v) {
                @Override
                void value(int row, ValueSink sink) {
                    sink.timeValue(v.get(row) * 1_000_000L);
                }
            };
        } else if (vector instanceof TimeMicroVector v) {
            return new Reader(v) {
                @Override
                void value(int row, ValueSink sink) {
                    sink.timeValue(v.get(row) * 1_000L);
                }
            };
        } else if (vector instanceof TimeNanoVector v) {
            return new Reader(v) {
                @Override
                void value(int row, ValueSink sink) {
                    sink.timeValue(v.get(row));
                }
            };
        } else if (vector instanceof TimeStampVector v) {
            return timestamp(v);
        } else if (vector instanceof MapVector v) { // before ListVector, which it extends
            return map(v);
        } else if (vector instanceof ListVector v) {
            ArrowValueReader elements = of(v.getDataVector());
            return new Reader(v) {
                @Override
                void value(int row, ValueSink sink) {
                    int start = v.getElementStartIndex(row);
                    int end = v.getElementEndIndex(row);
                    sink.startArray(end - start);
                    for (int i = start; i < end; i++) {
                        elements.read(i, sink);
                    }
                    sink.endArray();
                }
            };
        } else if (vector instanceof StructVector v) {
            return struct(v);
        }
        throw new IllegalArgumentException("No reader for Arrow vector " + vector.getName() + " of type "
                + vector.getField().getType() + " (" + vector.getClass().getSimpleName() + ")");
    }

    /** The readers of every column of a batch, in column order. */
    public static List<ArrowValueReader> ofColumns(List<FieldVector> columns) {
        List<ArrowValueReader> readers = new ArrayList<>(columns.size());
        for (FieldVector column : columns) {
            readers.add(of(column));
        }
        return readers;
    }

    /** The vector's name (its column's name). */
    public String name() {
        return vector.getName();
    }

    /** Reads row {@code row} (null or a value) into {@code sink}. */
    public abstract void read(int row, ValueSink sink);

    /** The common case: a null check (skipped for vectors without nulls), then the value. */
    private abstract static class Reader extends ArrowValueReader {
        private final FieldVector vector;
        private final boolean mayHoldNulls;

        Reader(FieldVector vector) {
            super(vector);
            this.vector = vector;
            this.mayHoldNulls = vector.getNullCount() > 0;
        }

        @Override
        public final void read(int row, ValueSink sink) {
            if (mayHoldNulls && vector.isNull(row)) {
                sink.nullValue();
            } else {
                value(row, sink);
            }
        }

        abstract void value(int row, ValueSink sink);
    }

    private static ArrowValueReader timestamp(TimeStampVector vector) {
        ArrowType.Timestamp type = (ArrowType.Timestamp) vector.getField().getType();
        EpochUnits unit = EpochUnits.of(type.getUnit());
        if (type.getTimezone() != null) {
            return new Reader(vector) {
                @Override
                void value(int row, ValueSink sink) {
                    long count = vector.get(row);
                    sink.instantValue(unit.epochSecond(count), unit.nanoOfSecond(count));
                }
            };
        }
        return new Reader(vector) {
            @Override
            void value(int row, ValueSink sink) {
                long count = vector.get(row);
                sink.timestampValue(unit.epochSecond(count), unit.nanoOfSecond(count));
            }
        };
    }

    private static ArrowValueReader map(MapVector vector) {
        List<FieldVector> entry = ((StructVector) vector.getDataVector()).getChildrenFromFields();
        ArrowValueReader keys = of(entry.get(0));
        ArrowValueReader values = of(entry.get(1));
        return new Reader(vector) {
            @Override
            void value(int row, ValueSink sink) {
                int start = vector.getElementStartIndex(row);
                int end = vector.getElementEndIndex(row);
                sink.startMap(end - start);
                for (int i = start; i < end; i++) {
                    keys.read(i, sink);
                    values.read(i, sink);
                }
                sink.endMap();
            }
        };
    }

    private static ArrowValueReader struct(StructVector vector) {
        List<FieldVector> children = vector.getChildrenFromFields();
        List<ArrowValueReader> fields = ofColumns(children);
        String[] names = children.stream().map(FieldVector::getName).toArray(String[]::new);
        return new Reader(vector) {
            @Override
            void value(int row, ValueSink sink) {
                sink.startRow(names.length);
                for (int i = 0; i < names.length; i++) {
                    sink.fieldName(names[i]);
                    fields.get(i).read(row, sink);
                }
                sink.endRow();
            }
        };
    }
}
