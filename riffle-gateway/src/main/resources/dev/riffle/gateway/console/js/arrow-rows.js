// Rows of an Arrow IPC stream as they arrive, batch by batch, read with apache-arrow (window.Arrow)
// and rendered as text at full precision: 64-bit integers and decimals as exact digits.

/** A grid source over record batches; add() each batch as it is read. */
export class ArrowRows {
  constructor(schema) {
    this.columns = schema.fields.map(field => ({ name: field.name, type: typeName(field.type) }));
    this.formats = schema.fields.map(field => formatter(field.type));
    // apache-arrow's get() turns a timestamp into milliseconds; these columns are read from their
    // 64-bit values instead, so micro- and nanoseconds are shown as stored.
    this.exact = schema.fields.map(field => window.Arrow.DataType.isTimestamp(field.type) ? timestampText(field.type) : null);
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
    const vector = this.batches[low].getChildAt(column);
    const index = row - this.starts[low];
    if (this.exact[column]) {
      if (!vector.isValid(index)) return null;
      const data = vector.data[0];
      return this.exact[column](data.values[data.offset + index]);
    }
    const value = vector.get(index);
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

/**
 * A timestamp's text from its 64-bit count of seconds, milli-, micro- or nanoseconds, as the JSON API
 * writes it: 2024-06-01T12:30:00.123456789, the fraction in groups of three digits and left out when
 * zero, and Z after an instant (a timestamp with a time zone).
 */
export function timestampText(type) {
  const digits = [0, 3, 6, 9][type.unit];
  const perSecond = 10n ** BigInt(digits);
  const zone = type.timezone ? 'Z' : '';
  return value => {
    const count = BigInt(value);
    let seconds = count / perSecond;
    let fraction = count % perSecond;
    if (fraction < 0n) {
      seconds -= 1n;
      fraction += perSecond;
    }
    const whole = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
    if (fraction === 0n) return whole + zone;
    let text = fraction.toString().padStart(digits, '0');
    while (text.length > 3 && text.endsWith('000')) text = text.slice(0, -3);
    return whole + '.' + text + zone;
  };
}

/** An unscaled decimal's digits with its scale applied: ("-1050", 2) -> "-10.50". */
export function withScale(digits, scale) {
  if (!scale) return digits;
  const negative = digits.startsWith('-');
  const unsigned = (negative ? digits.slice(1) : digits).padStart(scale + 1, '0');
  const text = unsigned.slice(0, -scale) + '.' + unsigned.slice(-scale);
  return negative ? '-' + text : text;
}
