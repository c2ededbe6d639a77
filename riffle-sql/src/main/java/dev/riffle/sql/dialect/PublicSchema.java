package dev.riffle.sql.dialect;

/**
 * PostgreSQL's {@code public} schema, which in the PostgreSQL dialect stands for Fluss's default
 * database: {@code SELECT * FROM public.orders} reads {@code fluss.orders}.
 *
 * <pre>{@code
 * String database = schema.equals(PublicSchema.NAME) ? PublicSchema.DATABASE : schema;
 * }</pre>
 */
public final class PublicSchema {
    /** The schema's name. */
    public static final String NAME = "public";
    /** The Fluss database it stands for (Fluss's default database). */
    public static final String DATABASE = "fluss";

    private PublicSchema() {}
}
