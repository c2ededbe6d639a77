package dev.riffle.flight.statement;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.math.BigDecimal;
import java.sql.Date;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What one {@code DoGet} reads, carried by its ticket so that any Riffle instance can serve it: the
 * statement, its bound parameters, the principal it runs as, and (for one endpoint of a scan cut
 * into several) the part of the read it covers. The ticket is signed ({@link TicketSigner}); an
 * instance serves only tickets it can verify, and only to the principal named in them.
 *
 * <pre>{@code
 * byte[] ticket = new QueryTicket("alice", "SELECT * FROM shop.orders WHERE id = ?", List.of(42L), Optional.empty())
 *         .encode(signer);
 * QueryTicket read = QueryTicket.decode(ticket, signer);
 * }</pre>
 *
 * @param principal the user the statement runs as; empty without authentication
 * @param sql the statement
 * @param parameters its {@code ?} values in order ({@code null}, Boolean, Long, Float, Double,
 *     BigDecimal, String, byte[], java.sql.Date, Time or Timestamp)
 * @param part the buckets and stop offsets of this endpoint, when the scan is cut into several
 * @param execution which execution of the statement this is, drawn at random for each FlightInfo:
 *     two executions of the same query get different tickets, so a DoGet takes only what its own
 *     GetFlightInfo started ({@link LookupsAhead})
 */
public record QueryTicket(String principal, String sql, List<Object> parameters, Optional<ScanPart> part,
        long execution) {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int VERSION = 1;

    public QueryTicket {
        requireNonNull(principal, "principal is null");
        requireNonNull(sql, "sql is null");
        parameters = Collections.unmodifiableList(new ArrayList<>(requireNonNull(parameters, "parameters is null")));
        requireNonNull(part, "part is null");
    }

    /** A ticket of a new execution of the statement (its {@code execution} drawn at random). */
    public QueryTicket(String principal, String sql, List<Object> parameters, Optional<ScanPart> part) {
        this(principal, sql, parameters, part, ThreadLocalRandom.current().nextLong());
    }

    public byte[] encode(TicketSigner signer) {
        ObjectNode root = JSON.createObjectNode();
        root.put("v", VERSION);
        root.put("principal", principal);
        root.put("sql", sql);
        ArrayNode values = root.putArray("parameters");
        for (Object parameter : parameters) {
            values.add(encodeValue(parameter));
        }
        part.ifPresent(p -> root.set("part", p.toJson(JSON)));
        root.put("execution", execution);
        try {
            return signer.sign(JSON.writeValueAsBytes(root));
        } catch (IOException e) {
            throw new IllegalStateException("Cannot encode a ticket: " + e.getMessage(), e);
        }
    }

    /**
     * @throws InvalidTicketException when the ticket was not signed with this deployment's key, was
     *     changed, or is not a ticket at all
     */
    public static QueryTicket decode(byte[] ticket, TicketSigner signer) {
        byte[] payload = signer.open(ticket).orElseThrow(() -> new InvalidTicketException(
                "The ticket was not issued by this Riffle deployment (or was changed): ask for a new FlightInfo"));
        try {
            JsonNode root = JSON.readTree(payload);
            if (root.path("v").asInt() != VERSION) {
                throw new InvalidTicketException("The ticket has version " + root.path("v") + "; this server reads "
                        + VERSION + ": ask for a new FlightInfo");
            }
            List<Object> parameters = new ArrayList<>();
            for (JsonNode value : root.path("parameters")) {
                parameters.add(decodeValue(value));
            }
            Optional<ScanPart> part = root.hasNonNull("part") ? Optional.of(ScanPart.fromJson(root.get("part")))
                    : Optional.empty();
            return new QueryTicket(root.path("principal").asText(), root.path("sql").asText(), parameters, part,
                    root.path("execution").asLong());
        } catch (IOException | RuntimeException e) {
            if (e instanceof InvalidTicketException invalid) {
                throw invalid;
            }
            throw new InvalidTicketException("The ticket cannot be read: " + e.getMessage());
        }
    }

    private static JsonNode encodeValue(Object value) {
        ObjectNode node = JSON.createObjectNode();
        if (value == null) {
            node.put("t", "null");
        } else if (value instanceof Boolean b) {
            node.put("t", "bool").put("v", b);
        } else if (value instanceof Byte || value instanceof Short || value instanceof Integer || value instanceof Long) {
            node.put("t", "long").put("v", ((Number) value).longValue());
        } else if (value instanceof Float f) {
            node.put("t", "float").put("v", f);
        } else if (value instanceof Double d) {
            node.put("t", "double").put("v", d);
        } else if (value instanceof BigDecimal d) {
            node.put("t", "decimal").put("v", d.toString());
        } else if (value instanceof String s) {
            node.put("t", "string").put("v", s);
        } else if (value instanceof byte[] bytes) {
            node.put("t", "bytes").put("v", Base64.getEncoder().encodeToString(bytes));
        } else if (value instanceof Date d) {
            node.put("t", "date").put("v", d.toLocalDate().toEpochDay());
        } else if (value instanceof Time t) {
            node.put("t", "time").put("v", t.getTime());
        } else if (value instanceof Timestamp t) {
            node.put("t", "timestamp").put("v", t.getTime()).put("n", t.getNanos());
        } else {
            throw new IllegalArgumentException("A parameter of type " + value.getClass().getName()
                    + " cannot be carried in a ticket");
        }
        return node;
    }

    private static Object decodeValue(JsonNode node) {
        String type = node.path("t").asText();
        JsonNode v = node.path("v");
        switch (type) {
            case "null":
                return null;
            case "bool":
                return v.asBoolean();
            case "long":
                return v.asLong();
            case "float":
                return (float) v.asDouble();
            case "double":
                return v.asDouble();
            case "decimal":
                return new BigDecimal(v.asText());
            case "string":
                return v.asText();
            case "bytes":
                return Base64.getDecoder().decode(v.asText());
            case "date":
                return Date.valueOf(java.time.LocalDate.ofEpochDay(v.asLong()));
            case "time":
                return new Time(v.asLong());
            case "timestamp":
                Timestamp timestamp = new Timestamp(v.asLong());
                timestamp.setNanos(node.path("n").asInt());
                return timestamp;
            default:
                throw new InvalidTicketException("The ticket holds a parameter of unknown type '" + type + "'");
        }
    }
}
