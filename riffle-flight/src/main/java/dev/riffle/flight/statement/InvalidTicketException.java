package dev.riffle.flight.statement;

/** A ticket this deployment did not issue, or that was changed or cut; the client asks for a new FlightInfo. */
public final class InvalidTicketException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public InvalidTicketException(String message) {
        super(message);
    }
}
