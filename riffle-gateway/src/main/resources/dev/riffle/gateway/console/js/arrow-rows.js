// Rows of an Arrow IPC stream as they arrive, batch by batch, read with apache-arrow (window.Arrow)
// and rendered as text at full precision: 64-bit integers and decimals as exact digits.

/** A grid source over record batches; add() each batch as it is read. */
export class ArrowRows {
  constructor(schema) {
    this.columns = schema.fields.map(field => ({ name: field.name, type: typeName(field.type) }));
    this.formats = schema.fields.map(field => formatter(field.type));
    this.batches = [];
    this.starts = [];
    this.count = 0;
  }

  add(batch) {
    this.batches.push(batch);
    this.starts.push(this.count);
    this.count += batch.numRows;
  }

  rowCount() {
    return this.count;
  }

  cell(row, column) {
    let low = 0;
    let high = this.batches.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.starts[mid] <= row) low = mid; else high = mid - 1;
    }
    const value = this.batches[low].getChildAt(column).get(row - this.starts[low]);
    return value === null || value === undefined ? null : this.formats[column](value);
  }
}

/** The column's type in SQL's words (the Arrow type's name where SQL has none). */
function typeName(type) {
  const { DataType } = window.Arrow;
  if (DataType.isDecimal(type)) return `DECIMAL(${type.precision}, ${type.scale})`;
  if (DataType.isTimestamp(type)) return type.timezone ? 'TIMESTAMP_LTZ' : 'TIMESTAMP';
  if (DataType.isInt(type)) return { 8: 'TINYINT', 16: 'SMALLINT', 32: 'INT', 64: 'BIGINT' }[type.bitWidth] || String(type);
  if (DataType.isFloat(type)) return type.precision === 2 ? 'DOUBLE' : 'FLOAT';
  if (DataType.isUtf8(type) || DataType.isLargeUtf8(type)) return 'STRING';
  if (DataType.isBool(type)) return 'BOOLEAN';
  if (DataType.isBinary(type) || DataType.isLargeBinary(type)) return 'BYTES';
  if (DataType.isFixedSizeBinary(type)) return `BINARY(${type.byteWidth})`;
  if (DataType.isDate(type)) return 'DATE';
  if (DataType.isTime(type)) return 'TIME';
  return String(type).toUpperCase();
}

function formatter(type) {
  const Arrow = window.Arrow;
  if (Arrow.DataType.isDecimal(type)) {
    return value => withScale(`${value}`, type.scale);
  }
  if (Arrow.DataType.isTimestamp(type)) {
    return value => {
      const iso = new Date(Number(value)).toISOString();
      return type.timezone ? iso : iso.slice(0, -1);
    };
  }
  if (Arrow.DataType.isDate(type)) {
    return value => new Date(value instanceof Date ? value.getTime() : Number(value)).toISOString().slice(0, 10);
  }
  if (Arrow.DataType.isBinary(type) || Arrow.DataType.isFixedSizeBinary(type)) {
    return value => Array.from(value, b => b.toString(16).padStart(2, '0')).join('');
  }
  if (Arrow.DataType.isList(type) || Arrow.DataType.isStruct(type) || Arrow.DataType.isMap(type)) {
    return value => JSON.stringify(value, (key, v) => (typeof v === 'bigint' ? v.toString() : v));
  }
  return value => String(value);
}

/** An unscaled decimal's digits with its scale applied: ("-1050", 2) -> "-10.50". */
export function withScale(digits, scale) {
  if (!scale) return digits;
  const negative = digits.startsWith('-');
  const unsigned = (negative ? digits.slice(1) : digits).padStart(scale + 1, '0');
  const text = unsigned.slice(0, -scale) + '.' + unsigned.slice(-scale);
  return negative ? '-' + text : text;
}
