package dev.riffle.flight;

import dev.riffle.core.rpc.FlussErrors;
import dev.riffle.flight.statement.InvalidTicketException;
import dev.riffle.server.failure.FailureKind;
import dev.riffle.server.failure.Failures;
import dev.riffle.server.failure.SqlFailures;
import java.util.Optional;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;

/**
 * Failures as Flight status codes, classified as every Riffle surface classifies them
 * ({@link Failures}, {@link SqlFailures} for statements): the code says what kind of failure it is,
 * the description is the message a client shows. An internal error carries only an id; the stack
 * trace stays in the server log.
 */
final class FlightErrors {
    private FlightErrors() {}

    /** {@code failure} as a Flight exception; {@code sql} is the statement it came from, if any. */
    static FlightRuntimeException toFlight(Throwable failure, Optional<String> sql) {
        Throwable e = FlussErrors.unwrap(failure);
        if (e instanceof FlightRuntimeException flight) {
            return flight;
        }
        if (e instanceof InvalidTicketException) {
            return CallStatus.INVALID_ARGUMENT.withDescription(e.getMessage()).toRuntimeException();
        }
        Failures.Failure classified = sql.isPresent() && e instanceof Exception exception
                ? SqlFailures.classify(exception, sql.get())
                : Failures.classify(e);
        return status(classified.kind()).withDescription(classified.message()).toRuntimeException();
    }

    static CallStatus status(FailureKind kind) {
        FlightStatusCode code = switch (kind) {
            case INVALID_ARGUMENT -> FlightStatusCode.INVALID_ARGUMENT;
            case NOT_FOUND -> FlightStatusCode.NOT_FOUND;
            case CONFLICT -> FlightStatusCode.ALREADY_EXISTS;
            case UNAUTHENTICATED -> FlightStatusCode.UNAUTHENTICATED;
            case PERMISSION_DENIED -> FlightStatusCode.UNAUTHORIZED;
            case TOO_LARGE -> FlightStatusCode.RESOURCE_EXHAUSTED;
            case UNAVAILABLE -> FlightStatusCode.UNAVAILABLE;
            case TIMEOUT -> FlightStatusCode.TIMED_OUT;
            case CANCELLED -> FlightStatusCode.CANCELLED;
            case INTERNAL -> FlightStatusCode.INTERNAL;
        };
        return new CallStatus(code, null, null, null);
    }
}
