package dev.riffle.pgwire.types;

import com.fasterxml.jackson.core.io.schubfach.DoubleToDecimal;
import com.fasterxml.jackson.core.io.schubfach.FloatToDecimal;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;

/**
 * PostgreSQL's text forms of scalar values, as a PostgreSQL 15 server with {@code DateStyle ISO},
 * {@code TimeZone UTC} and {@code extra_float_digits 1} prints them: booleans {@code t}/{@code f},
 * bytea {@code \x0a0b}, timestamps {@code 2024-06-01 12:00:00.123456} (trailing fraction zeros
 * dropped), timestamptz with {@code +00}, floats in their shortest exact form ({@code 0.1},
 * {@code 1e+15}, {@code NaN}, {@code Infinity}). Sub-microsecond digits of Fluss's nanosecond
 * timestamps are kept (PostgreSQL stores microseconds; clients parse up to nine digits).
 *
 * <pre>{@code
 * PgText.timestamp(1_717_243_200L, 120_000_000)   // "2024-06-01 12:00:00.12"
 * }</pre>
 */
public final class PgText {
    private static final char[] HEX = "0123456789abcdef".toCharArray();
    private static final BigDecimal TWO = BigDecimal.valueOf(2);
    private static final int FEW_DECIMALS = 6;
    /** Subnormals below this many times the smallest are written as {@link #offTheMidpoints} says. */
    private static final int TINY = 1000;
    private static final double[] POWERS_OF_TEN = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000};

    private PgText() {}

    public static String bool(boolean value) {
        return value ? "t" : "f";
    }

    public static String float4(float value) {
        if (!Float.isFinite(value)) {
            return nonFinite(value);
        }
        String digits = FloatToDecimal.toString(value);
        boolean tiny = value != 0 && Math.abs(value) < TINY * Float.MIN_VALUE;
        if (Math.abs(value) >= 0x1p24f || tiny) {
            digits = offTheMidpoints(digits, tiny, new BigDecimal(value),
                    neighbour(value, Math.nextDown(value), Math.ulp(value), false),
                    neighbour(value, Math.nextUp(value), Math.ulp(value), true), 9);
        }
        return shortest(digits, 6);
    }

    public static String float8(double value) {
        int decimals = fewDecimals(value);
        if (decimals >= 0) {
            RowBytes text = new RowBytes(24);
            writeFewDecimals(value, decimals, text);
            return new String(text.array(), 0, text.length(), java.nio.charset.StandardCharsets.US_ASCII);
        }
        return float8Digits(value);
    }

    /** Writes {@link #float8}'s text of {@code value} into {@code out}. */
    public static void writeFloat8(double value, RowBytes out) {
        int decimals = fewDecimals(value);
        if (decimals >= 0) {
            writeFewDecimals(value, decimals, out);
        } else {
            out.writeAscii(float8Digits(value));
        }
    }

    /**
     * How many decimals the shortest text of {@code value} has when that is at most
     * {@link #FEW_DECIMALS} and the value lies between 0.001 and 1e15 (prices,
     * measurements, counts); -1 when the general algorithm must decide. The first {@code k} whose
     * rounded {@code value * 10^k} reads back as the value is checked against the two
     * {@code k-1}-decimal neighbours: when neither reads back, no shorter text exists (one would
     * lie between them). Below 2^52 no such decimal sits on the midpoint to a neighbouring value,
     * so it is the one PostgreSQL prints too.
     */
    private static int fewDecimals(double value) {
        double magnitude = Math.abs(value);
        if (!(magnitude >= 0.001) || magnitude >= 1e15) { // PostgreSQL writes 1e15 and more with an exponent
            return -1;
        }
        for (int k = 0; k <= FEW_DECIMALS; k++) {
            double scaled = Math.rint(magnitude * POWERS_OF_TEN[k]);
            if (scaled >= 0x1p52) {
                return -1;
            }
            if (scaled / POWERS_OF_TEN[k] == magnitude) {
                if (k > 0) {
                    double below = Math.floor(scaled / 10);
                    if (below / POWERS_OF_TEN[k - 1] == magnitude || (below + 1) / POWERS_OF_TEN[k - 1] == magnitude) {
                        return -1;
                    }
                }
                return k;
            }
        }
        return -1;
    }

    private static void writeFewDecimals(double value, int decimals, RowBytes out) {
        long scaled = (long) Math.rint(Math.abs(value) * POWERS_OF_TEN[decimals]);
        if (value < 0) {
            out.writeByte('-');
        }
        long unit = (long) POWERS_OF_TEN[decimals];
        out.writeDecimal(scaled / unit);
        if (decimals > 0) {
            out.writeByte('.');
            long fraction = scaled % unit;
            for (long digit = unit / 10; digit > fraction && digit > 1; digit /= 10) {
                out.writeByte('0');
            }
            out.writeDecimal(fraction);
        }
    }

    /**
     * The exact value of {@code value}'s neighbour {@code next} (a float's widens exactly); past the
     * largest finite value, where the neighbour is infinite, the value one {@code ulp} further, as
     * if the format went on (either sign: the most negative value has no finite neighbour below).
     */
    private static BigDecimal neighbour(double value, double next, double ulp, boolean up) {
        if (Double.isFinite(next)) {
            return new BigDecimal(next);
        }
        BigDecimal step = new BigDecimal(ulp);
        return up ? new BigDecimal(value).add(step) : new BigDecimal(value).subtract(step);
    }

    private static String float8Digits(double value) {
        if (!Double.isFinite(value)) {
            return nonFinite(value);
        }
        String digits = DoubleToDecimal.toString(value);
        boolean tiny = value != 0 && Math.abs(value) < TINY * Double.MIN_VALUE;
        if (Math.abs(value) >= 0x1p53 || tiny) {
            digits = offTheMidpoints(digits, tiny, new BigDecimal(value),
                    neighbour(value, Math.nextDown(value), Math.ulp(value), false),
                    neighbour(value, Math.nextUp(value), Math.ulp(value), true), 17);
        }
        return shortest(digits, 15);
    }

    public static String numeric(BigDecimal value) {
        return value.toPlainString();
    }

    public static String bytea(byte[] value) {
        char[] text = new char[2 + value.length * 2];
        text[0] = '\\';
        text[1] = 'x';
        for (int i = 0; i < value.length; i++) {
            text[2 + 2 * i] = HEX[(value[i] >> 4) & 0xf];
            text[3 + 2 * i] = HEX[value[i] & 0xf];
        }
        return new String(text);
    }

    public static String date(int epochDay) {
        return date(LocalDate.ofEpochDay(epochDay));
    }

    public static String time(long nanoOfDay) {
        return time(LocalTime.ofNanoOfDay(nanoOfDay));
    }

    public static String timestamp(long epochSecond, int nanoOfSecond) {
        LocalDateTime dateTime = LocalDateTime.ofEpochSecond(epochSecond, nanoOfSecond, ZoneOffset.UTC);
        return date(dateTime.toLocalDate()) + " " + time(dateTime.toLocalTime());
    }

    /** An instant in the session's time zone, which Riffle keeps at UTC. */
    public static String timestamptz(long epochSecond, int nanoOfSecond) {
        return timestamp(epochSecond, nanoOfSecond) + "+00";
    }

    private static String date(LocalDate date) {
        int year = date.getYear();
        if (year <= 0) {
            // PostgreSQL has no year 0: 1 BC is year 0 of the proleptic calendar java.time uses.
            return String.format("%04d-%02d-%02d BC", 1 - year, date.getMonthValue(), date.getDayOfMonth());
        }
        return year > 9999 ? String.format("%d-%02d-%02d", year, date.getMonthValue(), date.getDayOfMonth())
                : date.toString();
    }

    private static String time(LocalTime time) {
        StringBuilder text = new StringBuilder(18);
        two(text, time.getHour()).append(':');
        two(text, time.getMinute()).append(':');
        two(text, time.getSecond());
        int nanos = time.getNano();
        if (nanos != 0) {
            String digits = Integer.toString(1_000_000_000 + nanos).substring(1);
            int end = digits.length();
            while (digits.charAt(end - 1) == '0') {
                end--;
            }
            text.append('.').append(digits, 0, end);
        }
        return text.toString();
    }

    private static StringBuilder two(StringBuilder text, int value) {
        return (value < 10 ? text.append('0') : text).append(value);
    }

    private static String nonFinite(double value) {
        return Double.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
    }

    /**
     * Java's shortest digits, unless they lie exactly halfway to a neighbouring value: Java takes
     * such a decimal (it reads back to the even neighbour), PostgreSQL's Ryu does not, and prints
     * the shortest decimal strictly between the midpoints. Only values of 2^53 (a float's 2^24) and
     * more can meet a midpoint with this few digits, so smaller ones never come here, but for the
     * smallest subnormals ({@code tiny}), which Java writes with a digit more than needed.
     */
    private static String offTheMidpoints(String javaText, boolean tiny, BigDecimal exact, BigDecimal below,
            BigDecimal above, int maxDigits) {
        BigDecimal low = exact.add(below).divide(TWO);
        BigDecimal high = exact.add(above).divide(TWO);
        BigDecimal shortest = new BigDecimal(javaText);
        if (!tiny && shortest.compareTo(low) != 0 && shortest.compareTo(high) != 0) {
            return javaText;
        }
        // Where one digit would do, Java writes the closest two (4.9E-324), PostgreSQL the one (5e-324): that
        // differs only where a digit spans the rounding interval, in the subnormals of a few bits
        for (int digits = tiny ? 1 : shortest.stripTrailingZeros().precision() + 1; digits < maxDigits; digits++) {
            BigDecimal candidate = exact.round(new MathContext(digits, RoundingMode.HALF_EVEN));
            if (candidate.compareTo(low) > 0 && candidate.compareTo(high) < 0) {
                return candidate.toString();
            }
        }
        return exact.round(new MathContext(maxDigits, RoundingMode.HALF_EVEN)).toString();
    }

    /**
     * The shortest digits that read back as the value (Schubfach's, as PostgreSQL's Ryu finds
     * them), in PostgreSQL's layout: plain between 1e-4 and 10^{@code plainDigits}, else
     * {@code d.ddde+XX}. {@code javaText} is the value as Java 19's {@code Double.toString} writes
     * it ({@code 123.45}, {@code 0.00123}, {@code 1.0E-5}); its digits are moved, not recomputed.
     */
    private static String shortest(String javaText, int plainDigits) {
        boolean negative = javaText.charAt(0) == '-';
        int exponentAt = javaText.indexOf('E');
        int mantissaEnd = exponentAt < 0 ? javaText.length() : exponentAt;
        char[] digits = new char[mantissaEnd];
        int count = 0;
        int point = 0;
        boolean pointSeen = false;
        for (int i = negative ? 1 : 0; i < mantissaEnd; i++) {
            char c = javaText.charAt(i);
            if (c == '.') {
                point = count;
                pointSeen = true;
            } else if (count > 0 || c != '0') {
                digits[count++] = c;
            } else if (pointSeen) {
                point--; // a zero after the point, before the first digit: 0.00123
            }
        }
        if (count == 0) {
            return negative ? "-0" : "0";
        }
        while (digits[count - 1] == '0') {
            count--;
        }
        // value = 0.d1d2... x 10^(point + exponent): the scientific exponent is one less
        int exponent = (pointSeen ? point : count) - 1
                + (exponentAt < 0 ? 0 : Integer.parseInt(javaText, exponentAt + 1, javaText.length(), 10));
        StringBuilder text = new StringBuilder(count + 8);
        if (negative) {
            text.append('-');
        }
        if (exponent >= -4 && exponent < plainDigits) {
            if (exponent < 0) {
                text.append("0.");
                for (int i = -1; i > exponent; i--) {
                    text.append('0');
                }
                return text.append(digits, 0, count).toString();
            }
            for (int i = 0; i <= exponent; i++) {
                text.append(i < count ? digits[i] : '0');
            }
            if (count > exponent + 1) {
                text.append('.').append(digits, exponent + 1, count - exponent - 1);
            }
            return text.toString();
        }
        text.append(digits[0]);
        if (count > 1) {
            text.append('.').append(digits, 1, count - 1);
        }
        text.append('e').append(exponent < 0 ? '-' : '+');
        int magnitude = Math.abs(exponent);
        if (magnitude < 10) {
            text.append('0');
        }
        return text.append(magnitude).toString();
    }
}
