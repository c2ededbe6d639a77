package dev.riffle.flight.statement;

import static java.util.Objects.requireNonNull;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallInfo;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightProducer.CallContext;
import org.apache.arrow.flight.FlightServerMiddleware;
import org.apache.arrow.flight.RequestContext;
import org.apache.arrow.vector.compression.CompressionUtil.CodecType;

/**
 * The Arrow buffer codecs a Flight client says it decompresses, from its call header
 * {@value #HEADER} ({@code zstd}, {@code lz4_frame}, comma-separated). A DoGet sends such a client
 * the batches Fluss stored with those codecs as they are, without decoding them on the server;
 * every other client gets uncompressed batches, which every Arrow client reads (Arrow Java needs
 * {@code arrow-compression} on its classpath for compressed ones, and the Flight SQL JDBC driver
 * does not bundle it). Flight has no negotiation of its own, hence a header.
 *
 * <pre>{@code
 * FlightServer.builder(allocator, location, producer).middleware(AcceptedCompression.KEY, new AcceptedCompression.Factory());
 * Set<CodecType> codecs = AcceptedCompression.of(context); // in a DoGet
 * }</pre>
 */
public final class AcceptedCompression implements FlightServerMiddleware {
    /** The call header a client names the codecs in. */
    public static final String HEADER = "riffle-accept-arrow-compression";
    public static final FlightServerMiddleware.Key<AcceptedCompression> KEY = FlightServerMiddleware.Key.of(HEADER);

    private final Set<CodecType> codecs;

    private AcceptedCompression(Set<CodecType> codecs) {
        this.codecs = requireNonNull(codecs, "codecs is null");
    }

    /** The codecs the call's client accepts (none without the header). */
    public static Set<CodecType> of(CallContext context) {
        AcceptedCompression accepted = context.getMiddleware(KEY);
        return accepted == null ? Set.of() : accepted.codecs;
    }

    /** Parses the header's value; an unknown codec is an error naming it (a typo would silently read slower). */
    static Set<CodecType> parse(String value) {
        EnumSet<CodecType> codecs = EnumSet.noneOf(CodecType.class);
        for (String name : value.split(",")) {
            String codec = name.trim().toLowerCase(Locale.ROOT);
            switch (codec) {
                case "" -> { }
                case "zstd" -> codecs.add(CodecType.ZSTD);
                case "lz4_frame" -> codecs.add(CodecType.LZ4_FRAME);
                default -> throw CallStatus.INVALID_ARGUMENT.withDescription("Unknown Arrow compression codec '"
                        + name.trim() + "' in header " + HEADER + "; known: zstd, lz4_frame").toRuntimeException();
            }
        }
        return Set.copyOf(codecs);
    }

    @Override
    public void onBeforeSendingHeaders(CallHeaders outgoingHeaders) {}

    @Override
    public void onCallCompleted(CallStatus status) {}

    @Override
    public void onCallErrored(Throwable err) {}

    /** Reads the header at the start of every call. */
    public static final class Factory implements FlightServerMiddleware.Factory<AcceptedCompression> {
        @Override
        public AcceptedCompression onCallStarted(CallInfo info, CallHeaders incomingHeaders, RequestContext context) {
            String value = incomingHeaders.get(HEADER);
            return new AcceptedCompression(value == null ? Set.of() : parse(value));
        }
    }
}
