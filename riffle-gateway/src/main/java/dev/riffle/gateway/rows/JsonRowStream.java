package dev.riffle.gateway.rows;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.riffle.gateway.http.ApiException;
import dev.riffle.gateway.http.Bodies;
import dev.riffle.gateway.http.Json;
import dev.riffle.gateway.http.MediaTypes;
import java.io.IOException;
import java.io.InputStream;
import java.util.function.Consumer;
import org.apache.fluss.row.GenericRow;

/**
 * The rows of a JSON write body, read value by value off Jackson's streaming parser and handed on
 * one at a time: a JSON array of row objects, or NDJSON (one object per line, any whitespace
 * between them). No tree of the body is built, so a body costs what its rows cost.
 *
 * <p>The body is read as {@link Json#MAPPER} reads a document (a name given twice in an object,
 * trailing content after the array, bad UTF-8 and over-deep nesting are {@code malformed_json});
 * each row is checked by its {@link RowShape} as it is read, so a bad row fails the request at that
 * row, before any later part of the body is read.
 *
 * <pre>{@code
 * List<GenericRow> rows = new ArrayList<>();
 * int count = JsonRowStream.read(body, JsonRowStream.Framing.ARRAY, RowShape.write(table), rows::add);
 * }</pre>
 */
final class JsonRowStream {
    /** How the rows are laid out in the body. */
    enum Framing {
        /** {@code [{...}, {...}]}. */
        ARRAY,
        /** {@code {...}\n{...}\n}: JSON values one after another. */
        NDJSON
    }

    private JsonRowStream() {}

    /**
     * Reads every row of {@code body}, each checked by {@code shape} and then given to {@code rows};
     * the number of rows. Fails with a 400 at the first malformed part or bad row.
     */
    static int read(InputStream body, Framing framing, RowShape shape, Consumer<GenericRow> rows) {
        requireNonNull(body, "body is null");
        requireNonNull(shape, "shape is null");
        requireNonNull(rows, "rows is null");
        try (JsonParser parser = Json.streamingParser(body)) {
            RowShape.StreamedRows reader = shape.streamedRows();
            return framing == Framing.ARRAY ? readArray(parser, reader, rows) : readValues(parser, reader, rows);
        } catch (JsonProcessingException e) {
            throw Bodies.malformed(e);
        } catch (IOException e) {
            throw Bodies.ioFailure(e);
        }
    }

    private static int readArray(JsonParser parser, RowShape.StreamedRows reader, Consumer<GenericRow> rows) throws IOException {
        JsonToken first = parser.nextToken();
        if (first == null) {
            throw ApiException.badRequest("malformed_json", "The request body is empty; a JSON document is required");
        }
        if (first != JsonToken.START_ARRAY) {
            throw ApiException.badRequest("invalid_request", "A JSON body must be an array of row objects, got "
                    + Json.describe(Json.valueAt(parser)) + " (send one object per line as " + MediaTypes.NDJSON + ")");
        }
        int count = 0;
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            rows.accept(reader.next(parser, count));
            count++;
        }
        JsonToken trailing = parser.nextToken();
        if (trailing != null) {
            throw new JsonParseException(parser, "Trailing token (" + trailing + ") after the array of rows; a body is"
                    + " one JSON document");
        }
        return count;
    }

    private static int readValues(JsonParser parser, RowShape.StreamedRows reader, Consumer<GenericRow> rows) throws IOException {
        int count = 0;
        while (parser.nextToken() != null) {
            rows.accept(reader.next(parser, count));
            count++;
        }
        return count;
    }
}
