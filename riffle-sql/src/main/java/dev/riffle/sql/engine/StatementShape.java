package dev.riffle.sql.engine;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.types.ArrowTypeMapping;
import dev.riffle.sql.exec.PreparedTables;
import dev.riffle.sql.types.SqlTypes;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.avatica.AvaticaParameter;
import org.apache.calcite.avatica.AvaticaPreparedStatement;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.types.DataField;
import org.apache.fluss.types.RowType;

/**
 * What a statement prepared by the {@code jdbc:riffle} driver answers and takes, as Arrow schemas,
 * known before it runs: the columns of its rows (in the Arrow types Riffle reads Fluss columns as)
 * and one field per {@code ?} parameter. Wire protocols announce these at prepare time (Flight
 * SQL's dataset and parameter schemas).
 *
 * <pre>{@code
 * StatementShape shape = StatementShape.of(connection.prepareStatement("SELECT id FROM shop.orders WHERE id = ?"));
 * shape.rows();       // id: Int(32)
 * shape.parameters(); // parameter_1: Int(32)
 * }</pre>
 *
 * @param rows the columns of the statement's rows; no fields for a statement that changes rows or DDL
 * @param parameters one field per {@code ?}, in order, named {@code parameter_1}, ...
 * @param query whether the statement answers rows (false for INSERT, UPDATE, DELETE and DDL)
 */
public record StatementShape(Schema rows, Schema parameters, boolean query) {
    private static final java.util.Set<Meta.StatementType> CHANGES = java.util.EnumSet.of(Meta.StatementType.INSERT,
            Meta.StatementType.UPDATE, Meta.StatementType.DELETE, Meta.StatementType.UPSERT, Meta.StatementType.MERGE,
            Meta.StatementType.IS_DML, Meta.StatementType.OTHER_DDL, Meta.StatementType.CREATE,
            Meta.StatementType.DROP, Meta.StatementType.ALTER);

    /** The shape of a statement that answers a row count (DML) or nothing (DDL), and takes no parameters. */
    public static final StatementShape UPDATE = new StatementShape(new Schema(List.of()), new Schema(List.of()), false);

    /** Field metadata of a column read as it is from a table: the table's database (Flight SQL's key). */
    public static final String ORIGIN_SCHEMA = "ARROW:FLIGHT:SQL:DB_SCHEMA_NAME";
    /** Field metadata of a column read as it is from a table: the table (Flight SQL's key). */
    public static final String ORIGIN_TABLE = "ARROW:FLIGHT:SQL:TABLE_NAME";
    /** Field metadata of a column read as it is from a table: the column's name in the table. */
    public static final String ORIGIN_COLUMN = "riffle:origin_column";
    /** The Fluss table id of the planned table a column comes from. */
    public static final String ORIGIN_TABLE_ID = "riffle:origin_table_id";
    /** The column's position (from 1) in that table's schema. */
    public static final String ORIGIN_POSITION = "riffle:origin_position";

    public StatementShape {
        requireNonNull(rows, "rows is null");
        requireNonNull(parameters, "parameters is null");
    }

    /**
     * The shape of {@code statement}, prepared by the {@code jdbc:riffle} driver. (DDL runs when
     * Calcite prepares it: find DDL with {@link dev.riffle.sql.ddl.DdlParser} before preparing.)
     */
    public static StatementShape of(PreparedStatement statement) throws SQLException {
        requireNonNull(statement, "statement is null");
        CalcitePrepare.CalciteSignature<?> signature = signature(statement);
        boolean query = !CHANGES.contains(signature.statementType) && signature.rowType != null
                && !signature.rowType.getFieldList().isEmpty();
        Schema rows = query ? withOrigins(ArrowTypeMapping.toArrowSchema(rowType(signature.rowType)), signature.columns,
                plannedTables(signature)) : new Schema(List.of());
        List<Field> parameters = new ArrayList<>();
        for (int i = 0; i < signature.parameters.size(); i++) {
            parameters.add(new Field("parameter_" + (i + 1), FieldType.nullable(arrowType(signature.parameters.get(i))),
                    null));
        }
        return new StatementShape(rows, new Schema(parameters), query);
    }

    /**
     * Each column that is a table's column as it is ({@code SELECT id FROM shop.orders}, not
     * {@code id + 1}) says so in its field's metadata: Flight SQL's {@link #ORIGIN_SCHEMA} and
     * {@link #ORIGIN_TABLE} (which Flight SQL's JDBC driver answers {@code getTableName} with), and
     * {@link #ORIGIN_COLUMN}, the table's name for it (PostgreSQL's RowDescription points at it).
     */
    private static Schema withOrigins(Schema rows, List<ColumnMetaData> columns, List<TableInfo> tables) {
        if (columns.size() != rows.getFields().size()) {
            return rows;
        }
        List<Field> fields = new ArrayList<>(rows.getFields().size());
        for (int i = 0; i < columns.size(); i++) {
            Field field = rows.getFields().get(i);
            ColumnMetaData column = columns.get(i);
            if (isEmpty(column.schemaName) || isEmpty(column.tableName) || isEmpty(column.columnName)) {
                fields.add(field);
                continue;
            }
            // Calcite names the table as the statement did (PostgreSQL's lower case); Fluss by its own name
            java.util.Optional<TableInfo> planned = tables.stream()
                    .filter(t -> t.getTablePath().getDatabaseName().equals(column.schemaName)
                            && t.getTablePath().getTableName().equals(column.tableName))
                    .findFirst()
                    .or(() -> tables.stream()
                            .filter(t -> t.getTablePath().getDatabaseName().equalsIgnoreCase(column.schemaName)
                                    && t.getTablePath().getTableName().equalsIgnoreCase(column.tableName))
                            .findFirst());
            TablePath path = planned.map(TableInfo::getTablePath)
                    .orElse(TablePath.of(column.schemaName, column.tableName));
            java.util.Map<String, String> metadata = new java.util.HashMap<>();
            if (field.getMetadata() != null) {
                metadata.putAll(field.getMetadata());
            }
            metadata.put(ORIGIN_SCHEMA, path.getDatabaseName());
            metadata.put(ORIGIN_TABLE, path.getTableName());
            metadata.put(ORIGIN_COLUMN, column.columnName);
            // The planned table's id and the column's position in it: what PostgreSQL's RowDescription
            // says of a column's origin, known here without asking the cluster again.
            planned.ifPresent(info -> {
                int index = info.getSchema().getColumnNames().indexOf(column.columnName);
                if (index >= 0) {
                    metadata.put(ORIGIN_TABLE_ID, Long.toString(info.getTableId()));
                    metadata.put(ORIGIN_POSITION, Integer.toString(index + 1));
                }
            });
            FieldType type = field.getFieldType();
            fields.add(new Field(field.getName(), new FieldType(type.isNullable(), type.getType(), type.getDictionary(),
                    metadata), field.getChildren()));
        }
        return new Schema(fields, rows.getCustomMetadata());
    }

    @SuppressWarnings("unchecked")
    private static List<TableInfo> plannedTables(CalcitePrepare.CalciteSignature<?> signature) {
        Object tables = signature.internalParameters.get(PreparedTables.KEY);
        return tables instanceof List<?> list ? (List<TableInfo>) list : List.of();
    }

    private static boolean isEmpty(String text) {
        return text == null || text.isEmpty();
    }

    /** The SQL row type of a statement's result. */
    static RelDataType resultType(PreparedStatement statement) throws SQLException {
        return signature(statement).rowType;
    }

    /** The Fluss row type of a SQL row type. */
    static RowType rowType(RelDataType type) {
        // SQL lets two result columns share a name (SELECT a.id, b.id); Fluss and Arrow consumers
        // want them apart, so the later ones get Calcite's numeric suffix (id, id0).
        List<String> names = SqlValidatorUtil.uniquify(type.getFieldNames(), SqlValidatorUtil.EXPR_SUGGESTER, true);
        List<DataField> fields = new ArrayList<>();
        List<RelDataTypeField> list = type.getFieldList();
        for (int i = 0; i < list.size(); i++) {
            fields.add(new DataField(names.get(i), SqlTypes.flussType(list.get(i).getType())));
        }
        return new RowType(fields);
    }

    private static CalcitePrepare.CalciteSignature<?> signature(PreparedStatement statement) throws SQLException {
        var handle = statement.unwrap(AvaticaPreparedStatement.class).handle;
        if (handle != null && handle.signature instanceof CalcitePrepare.CalciteSignature<?> signature) {
            return signature;
        }
        throw new SQLException("The statement was not prepared by the jdbc:riffle driver; its shape is unknown");
    }

    /** Microseconds, or nanoseconds for a parameter of a TIMESTAMP(7) to (9) column, which holds them. */
    private static TimeUnit timestampUnit(AvaticaParameter parameter) {
        return parameter.precision > 6 ? TimeUnit.NANOSECOND : TimeUnit.MICROSECOND;
    }

    /** The Arrow type a client binds a parameter of this JDBC type with. */
    private static ArrowType arrowType(AvaticaParameter parameter) {
        switch (parameter.parameterType) {
            case Types.BOOLEAN:
                return ArrowType.Bool.INSTANCE;
            case Types.TINYINT:
                return new ArrowType.Int(8, true);
            case Types.SMALLINT:
                return new ArrowType.Int(16, true);
            case Types.INTEGER:
                return new ArrowType.Int(32, true);
            case Types.BIGINT:
                return new ArrowType.Int(64, true);
            case Types.REAL:
            case Types.FLOAT:
                return new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
            case Types.DOUBLE:
                return new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
            case Types.DECIMAL:
            case Types.NUMERIC:
                return parameter.precision > 0 && parameter.precision <= 38
                        ? new ArrowType.Decimal(parameter.precision, Math.max(0, parameter.scale), 128)
                        : ArrowType.Utf8.INSTANCE;
            case Types.BINARY:
            case Types.VARBINARY:
                return ArrowType.Binary.INSTANCE;
            case Types.DATE:
                return new ArrowType.Date(DateUnit.DAY);
            case Types.TIME:
                return new ArrowType.Time(TimeUnit.MILLISECOND, 32);
            case Types.TIMESTAMP:
                return new ArrowType.Timestamp(timestampUnit(parameter), null);
            case Types.TIMESTAMP_WITH_TIMEZONE:
                return new ArrowType.Timestamp(timestampUnit(parameter), "UTC");
            default:
                // CHAR, VARCHAR and anything Calcite could not narrow: text, which it converts.
                return ArrowType.Utf8.INSTANCE;
        }
    }
}
